/**
 * The part of CEL (github.com/google/cel-spec) the shipped ValidatingAdmissionPolicies use, so
 * that tests evaluate their expressions instead of reading them: literals, lists, field and index
 * access, `has()`, `size()`, `!`, `&&`, `||` (with CEL's commutative treatment of errors), `==`,
 * `!=`, `in`, `+`, `?:`, the string functions `startsWith`, `endsWith`, `contains`, `split`,
 * `trim` (Kubernetes' strings library) and the `map`, `exists`, `all` macros. A reference to a
 * missing field is an error, as in CEL; anything outside this subset throws at parse time, so a
 * policy that grows beyond it fails its test instead of passing unchecked.
 */

export class CelError extends Error {
  override name = 'CelError';
}

type Value = unknown;
type Node =
  | { t: 'lit'; v: Value }
  | { t: 'id'; name: string }
  | { t: 'list'; items: Node[] }
  | { t: 'member'; obj: Node; field: string }
  | { t: 'index'; obj: Node; key: Node }
  | { t: 'call'; fn: string; target?: Node; args: Node[] }
  | { t: 'unary'; op: '!' | '-'; arg: Node }
  | { t: 'binary'; op: string; left: Node; right: Node }
  | { t: 'cond'; test: Node; then: Node; else: Node };

const TOKEN =
  /\s*(?:(\d+)|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|([A-Za-z_][A-Za-z0-9_]*)|(&&|\|\||==|!=|<=|>=|[-+!?:.,()[\]<>]))/y;

function tokenize(src: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < src.length) {
    if (/^\s*$/.test(src.slice(TOKEN.lastIndex))) break;
    const m = TOKEN.exec(src);
    if (!m)
      throw new CelError(
        `cannot parse at ${JSON.stringify(src.slice(TOKEN.lastIndex, TOKEN.lastIndex + 20))}`,
      );
    out.push(m[1] ?? m[2] ?? m[3] ?? m[4]!);
  }
  return out;
}

const PRECEDENCE: Record<string, number> = {
  '||': 1,
  '&&': 2,
  '==': 3,
  '!=': 3,
  in: 3,
  '<': 3,
  '>': 3,
  '+': 4,
  '-': 4,
};
const MACROS = new Set(['map', 'exists', 'all']);
const METHODS = new Set(['startsWith', 'endsWith', 'contains', 'split', 'trim']);

export function parseCel(src: string): Node {
  const toks = tokenize(src);
  let i = 0;
  const peek = () => toks[i];
  const next = () => toks[i++];
  const expect = (t: string) => {
    if (next() !== t) throw new CelError(`expected ${t} in ${src}`);
  };
  const args = (): Node[] => {
    const out: Node[] = [];
    if (peek() === ')') {
      next();
      return out;
    }
    for (;;) {
      out.push(expr());
      const t = next();
      if (t === ')') return out;
      if (t !== ',') throw new CelError(`expected , or ) in ${src}`);
    }
  };
  const primary = (): Node => {
    const t = next();
    if (t === undefined) throw new CelError(`unexpected end of ${src}`);
    if (/^\d+$/.test(t)) return { t: 'lit', v: Number(t) };
    if (t[0] === "'" || t[0] === '"') return { t: 'lit', v: t.slice(1, -1).replace(/\\(.)/g, '$1') };
    if (t === 'true' || t === 'false') return { t: 'lit', v: t === 'true' };
    if (t === 'null') return { t: 'lit', v: null };
    if (t === '(') {
      const e = expr();
      expect(')');
      return e;
    }
    if (t === '[') {
      const items: Node[] = [];
      if (peek() === ']') next();
      else
        for (;;) {
          items.push(expr());
          const s = next();
          if (s === ']') break;
          if (s !== ',') throw new CelError(`expected , or ] in ${src}`);
        }
      return { t: 'list', items };
    }
    if (t === '!' || t === '-') return { t: 'unary', op: t, arg: postfix(primary()) };
    if (/^[A-Za-z_]/.test(t)) {
      if (peek() === '(') {
        next();
        if (t !== 'has' && t !== 'size') throw new CelError(`function ${t} is not in this CEL subset`);
        return { t: 'call', fn: t, args: args() };
      }
      return { t: 'id', name: t };
    }
    throw new CelError(`unexpected ${t} in ${src}`);
  };
  const postfix = (node: Node): Node => {
    for (;;) {
      if (peek() === '.') {
        next();
        const name = next()!;
        if (peek() === '(') {
          next();
          if (!MACROS.has(name) && !METHODS.has(name))
            throw new CelError(`method ${name} is not in this CEL subset`);
          node = { t: 'call', fn: name, target: node, args: args() };
        } else node = { t: 'member', obj: node, field: name };
      } else if (peek() === '[') {
        next();
        const key = expr();
        expect(']');
        node = { t: 'index', obj: node, key };
      } else return node;
    }
  };
  const binary = (min: number): Node => {
    let left = postfix(primary());
    for (;;) {
      const op = peek();
      const p = op === undefined ? undefined : PRECEDENCE[op];
      if (p === undefined || p < min) return left;
      next();
      const right = binary(p + 1);
      left = { t: 'binary', op: op!, left, right };
    }
  };
  const expr = (): Node => {
    const test = binary(1);
    if (peek() !== '?') return test;
    next();
    const then = expr();
    expect(':');
    return { t: 'cond', test, then, else: expr() };
  };
  const node = expr();
  if (i !== toks.length) throw new CelError(`unexpected ${toks[i]} in ${src}`);
  return node;
}

const isMap = (v: Value): v is Record<string, Value> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function equal(a: Value, b: Value): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, k) => equal(x, b[k]));
  if (isMap(a) && isMap(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && equal(a[k], b[k]));
  }
  return a === b;
}

const str = (v: Value, what: string): string => {
  if (typeof v !== 'string') throw new CelError(`${what}: not a string`);
  return v;
};

/** Evaluates `node` with `vars` (object, oldObject, request, params, variables…); throws CelError as CEL errs. */
export function evalCel(node: Node, vars: Record<string, Value>): Value {
  const ev = (n: Node, scope: Record<string, Value>): Value => {
    switch (n.t) {
      case 'lit':
        return n.v;
      case 'id':
        if (!(n.name in scope)) throw new CelError(`undeclared reference to ${n.name}`);
        return scope[n.name];
      case 'list':
        return n.items.map((x) => ev(x, scope));
      case 'member': {
        const o = ev(n.obj, scope);
        if (!isMap(o) || !(n.field in o)) throw new CelError(`no such key: ${n.field}`);
        return o[n.field];
      }
      case 'index': {
        const o = ev(n.obj, scope);
        const k = ev(n.key, scope);
        if (Array.isArray(o) && typeof k === 'number') {
          if (k < 0 || k >= o.length) throw new CelError(`index out of range: ${k}`);
          return o[k];
        }
        if (isMap(o) && typeof k === 'string' && k in o) return o[k];
        throw new CelError(`no such key: ${String(k)}`);
      }
      case 'unary': {
        const v = ev(n.arg, scope);
        if (n.op === '!') {
          if (typeof v !== 'boolean') throw new CelError('! of a non-bool');
          return !v;
        }
        if (typeof v !== 'number') throw new CelError('- of a non-number');
        return -v;
      }
      case 'cond': {
        const c = ev(n.test, scope);
        if (typeof c !== 'boolean') throw new CelError('?: on a non-bool');
        return ev(c ? n.then : n.else, scope);
      }
      case 'binary': {
        if (n.op === '&&' || n.op === '||') {
          // CEL: a decisive operand wins over an error on the other side, in either order.
          const decisive = n.op === '||';
          let error: unknown;
          const sides: boolean[] = [];
          for (const side of [n.left, n.right]) {
            try {
              const v = ev(side, scope);
              if (typeof v !== 'boolean') throw new CelError(`${n.op} of a non-bool`);
              if (v === decisive) return decisive;
              sides.push(v);
            } catch (e) {
              error ??= e;
            }
          }
          if (error) throw error;
          return !decisive;
        }
        const l = ev(n.left, scope);
        const r = ev(n.right, scope);
        switch (n.op) {
          case '==':
            return equal(l, r);
          case '!=':
            return !equal(l, r);
          case 'in':
            if (Array.isArray(r)) return r.some((x) => equal(x, l));
            if (isMap(r)) return typeof l === 'string' && l in r;
            throw new CelError('in: not a list or map');
          case '+':
            if (typeof l === 'string' && typeof r === 'string') return l + r;
            if (typeof l === 'number' && typeof r === 'number') return l + r;
            if (Array.isArray(l) && Array.isArray(r)) return [...l, ...r];
            throw new CelError('+ of mismatched types');
          case '-':
          case '<':
          case '>':
            if (typeof l !== 'number' || typeof r !== 'number') throw new CelError(`${n.op} of non-numbers`);
            return n.op === '-' ? l - r : n.op === '<' ? l < r : l > r;
          default:
            throw new CelError(`operator ${n.op}`);
        }
      }
      case 'call': {
        if (n.fn === 'has') {
          const arg = n.args[0];
          if (n.args.length !== 1 || arg?.t !== 'member')
            throw new CelError('has() takes one field selection');
          const o = ev(arg.obj, scope);
          return isMap(o) && arg.field in o;
        }
        if (n.fn === 'size') {
          const v = ev(n.args[0]!, scope);
          if (typeof v === 'string' || Array.isArray(v)) return v.length;
          if (isMap(v)) return Object.keys(v).length;
          throw new CelError('size() of a scalar');
        }
        if (MACROS.has(n.fn)) {
          const [variable, body] = n.args;
          if (variable?.t !== 'id' || !body) throw new CelError(`${n.fn}(x, expr) needs a variable`);
          const target = ev(n.target!, scope);
          const items = Array.isArray(target) ? target : isMap(target) ? Object.keys(target) : undefined;
          if (!items) throw new CelError(`${n.fn} on a scalar`);
          const each = (x: Value) => ev(body, { ...scope, [variable.name]: x });
          if (n.fn === 'map') return items.map(each);
          const results = items.map((x) => {
            const v = each(x);
            if (typeof v !== 'boolean') throw new CelError(`${n.fn}: predicate is not a bool`);
            return v;
          });
          return n.fn === 'exists' ? results.some(Boolean) : results.every(Boolean);
        }
        const s = str(ev(n.target!, scope), n.fn);
        const a = n.args.map((x) => ev(x, scope));
        switch (n.fn) {
          case 'startsWith':
            return s.startsWith(str(a[0], n.fn));
          case 'endsWith':
            return s.endsWith(str(a[0], n.fn));
          case 'contains':
            return s.includes(str(a[0], n.fn));
          case 'split':
            return s.split(str(a[0], n.fn));
          case 'trim':
            return s.trim();
          default:
            throw new CelError(`method ${n.fn}`);
        }
      }
    }
  };
  return ev(node, vars);
}

export const cel = (src: string, vars: Record<string, Value>): Value => evalCel(parseCel(src), vars);
