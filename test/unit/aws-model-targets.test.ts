import { describe, expect, it } from 'vitest';
import type { ServicePort } from '../../lib/karmada/types.js';
import { inCidr, isRegistrablePrivateAddress, parseIPv4 } from '../../lib/providers/aws/model/ip.js';
import { endpointPortFor, sourceClusterOf } from '../../lib/providers/aws/model/targets.js';
import { collectedSlice } from '../fixtures/aws/objects.js';

describe('Function: sourceClusterOf', () => {
  it.each([
    {
      name: 'work namespace annotation',
      slice: collectedSlice('member-1', 's', { addresses: [] }),
      known: [],
      expected: 'member-1',
    },
    {
      name: 'work namespace label (older Karmada)',
      slice: (() => {
        const s = collectedSlice('member-1', 's', { addresses: [], noAnnotation: true });
        s.metadata.labels = { ...s.metadata.labels, 'work.karmada.io/namespace': 'karmada-es-member-1' };
        return s;
      })(),
      known: [],
      expected: 'member-1',
    },
    {
      name: 'name prefix, longest known cluster wins',
      slice: collectedSlice('a-b', 's', { addresses: [], noAnnotation: true }),
      known: ['a', 'a-b'],
      expected: 'a-b',
    },
    {
      name: 'name prefix, nothing known',
      slice: collectedSlice('a-b', 's', { addresses: [], noAnnotation: true }),
      known: [],
      expected: undefined,
    },
  ])('$name', ({ slice, known, expected }) => {
    expect(sourceClusterOf(slice, known)).toBe(expected);
  });
});

describe('Function: endpointPortFor', () => {
  const slice = collectedSlice('m', 's', {
    addresses: [],
    ports: [
      { name: 'http', port: 8081 },
      { name: '', port: 9000 },
    ],
  });
  it.each([
    { name: 'by port name', sp: { name: 'http', port: 80, targetPort: 'web' }, expected: 8081 },
    {
      name: 'unnamed port matches the unnamed slice port',
      sp: { port: 80, targetPort: 1234 },
      expected: 9000,
    },
    {
      name: 'numeric targetPort fallback',
      sp: { name: 'other', port: 80, targetPort: 7000 },
      expected: 7000,
    },
    { name: 'no targetPort: the port', sp: { name: 'other', port: 80 }, expected: 80 },
    {
      name: 'named targetPort not in the slice',
      sp: { name: 'other', port: 80, targetPort: 'x' },
      expected: undefined,
    },
  ] as Array<{ name: string; sp: ServicePort; expected: number | undefined }>)(
    '$name',
    ({ sp, expected }) => {
      expect(endpointPortFor(slice, sp)).toBe(expected);
    },
  );
});

describe('Module: ip', () => {
  it.each([
    { ip: '10.1.2.3', registrable: true },
    { ip: '172.16.0.1', registrable: true },
    { ip: '172.32.0.1', registrable: false },
    { ip: '192.168.255.255', registrable: true },
    { ip: '100.64.0.1', registrable: true },
    { ip: '100.128.0.1', registrable: false },
    { ip: '8.8.8.8', registrable: false },
  ])('$ip registrable: $registrable', ({ ip, registrable }) => {
    expect(isRegistrablePrivateAddress(parseIPv4(ip)!)).toBe(registrable);
  });

  it.each(['1.2.3', '1.2.3.256', 'a.b.c.d', '::1', '01.2.3.4.5'])('rejects %s', (ip) => {
    expect(parseIPv4(ip)).toBeUndefined();
  });

  it('checks CIDR membership', () => {
    expect(inCidr(parseIPv4('10.0.255.1')!, '10.0.0.0/16')).toBe(true);
    expect(inCidr(parseIPv4('10.1.0.1')!, '10.0.0.0/16')).toBe(false);
    expect(inCidr(parseIPv4('1.2.3.4')!, '0.0.0.0/0')).toBe(true);
  });
});
