// @ts-check
/**
 * A Stryker ignorer: mutants inside a logger call (`log.info(...)`, `logger.warn(...)`) are
 * reported as ignored, with this reason, instead of being tested. What a log line says is for a
 * reader, not behaviour the lifecycle or the deployer depends on; the log contents that matter
 * (no secrets) are checked by test/security/logs.test.ts, not by these folders' tests.
 */
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error']);
const LOGGERS = /^(log|logger)$/;

/** @param {import('@babel/core').NodePath} path */
function isLogCall(path) {
  if (!path.isCallExpression()) return false;
  const callee = path.node.callee;
  if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return false;
  if (!LEVELS.has(callee.property.name)) return false;
  const target = callee.object;
  if (target.type === 'Identifier') return LOGGERS.test(target.name);
  // ctx.logger.info(...), deps.logger.warn(...)
  return (
    target.type === 'MemberExpression' &&
    target.property.type === 'Identifier' &&
    LOGGERS.test(target.property.name)
  );
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'log-calls', {
    /** @param {import('@babel/core').NodePath} path */
    shouldIgnore(path) {
      return isLogCall(path) ? 'a log message: read by people, not behaviour the tests pin down' : undefined;
    },
  }),
];
