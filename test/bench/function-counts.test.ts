/**
 * The benchmarks' count by function (bench/harness/function-counts.ts, BENCH_COUNT_FUNCTIONS): a
 * callgrind dump written by instruction address, read against V8's perf map, charges each instruction
 * to the JavaScript function whose compiled code holds it, else to the native function callgrind names.
 * The dump below is in callgrind's format as valgrind 3.19 writes it with `--dump-instr=yes
 * --dump-line=no` (names compressed to ids, positions relative to the previous one); running node
 * under callgrind takes a minute, which the suite does not spend (docs/benchmarks.md has a real run).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkoutDir } from '../../bench/harness/cpu.ts';
import { countFunctions, javaScriptName, originOf, parsePerfMap } from '../../bench/harness/function-counts.ts';

const checkout = `file://${checkoutDir}`;
const perfMap = [
  // The same function compiled twice (interpreted, then optimized) and a start reused: the later line wins.
  `1000 100 JS:~presentNotification ${checkout}/src/areas/notifications/presenters.ts:44:16`,
  `2000 80 JS:*presentNotification ${checkout}/src/areas/notifications/presenters.ts:44:16`,
  '3000 40 JS:^old file:///gone.js:1:1',
  `3000 40 JS:+send ${checkout}/node_modules/fastify/lib/reply.js:120:30`,
  '4000 10 Builtin:StringAdd_CheckNone',
].join('\n');

const dump = [
  '# callgrind format',
  'version: 1',
  'positions: instr',
  'events: Ir',
  '',
  'ob=(1) /usr/bin/node',
  'fn=(1) Builtins_CallFunction_ReceiverIsAny',
  // Its own instructions, then code it jumped into: the optimized presenter's (at 0x2010).
  '0x900 5',
  '+4 5',
  '0x2010 300',
  '+8 100',
  // A call from the presenter's code to JSON.stringify's C++: charged to the presenter, inclusively.
  'cfn=(2) v8::internal::JsonStringify(v8::internal::Isolate*, v8::internal::Handle<v8::internal::Object>)',
  'calls=2 0x7000',
  '+2 1000',
  // A call from the presenter into its own code (V8's call builtin jumped back in): not counted twice.
  'cfn=(3) 0x0000000000001010',
  'calls=1 0x1010',
  '* 50',
  '',
  'fn=(2)',
  '0x7000 1000',
  '',
  'fn=(3)',
  '0x1010 50',
  // Into Fastify's `send` (its start reused after `old`), which calls the interpreted presenter from
  // 50 bytes further (a relative position is decimal: 0x3036, inside `send`; read as hex, outside it).
  '0x3004 40',
  'cfn=(3)',
  'calls=1 0x1010',
  '+50 50',
  '',
  'ob=(2) /usr/lib/x86_64-linux-gnu/libc.so.6',
  "fn=(4) __memcpy_avx_unaligned_erms'2",
  '0x5000 200',
].join('\n');

describe('the benchmarks count instructions by function', () => {
  it('names compiled JavaScript by its function and place, one name for all its tiers', () => {
    assert.equal(
      javaScriptName(`JS:*presentNotification ${checkout}/src/areas/notifications/presenters.ts:44:16`),
      'presentNotification src/areas/notifications/presenters.ts:44',
    );
    assert.equal(
      javaScriptName(`JS:~ ${checkout}/node_modules/pino/lib/proto.js:7:3`),
      '(anonymous) pino/lib/proto.js:7',
    );
    assert.equal(javaScriptName(`JS:^get total ${checkout}/src/x.ts:3:9`), 'get total src/x.ts:3');
    assert.equal(javaScriptName('Builtin:StringAdd_CheckNone'), null);
    assert.deepEqual(
      parsePerfMap(perfMap).map(({ start, name }) => [start, name.split(' ')[0]]),
      [
        [0x1000, 'JS:~presentNotification'],
        [0x2000, 'JS:*presentNotification'],
        [0x3000, 'JS:+send'],
        [0x4000, 'Builtin:StringAdd_CheckNone'],
      ],
    );
  });

  it('charges each instruction to the code at its address, and calls to the function that made them', () => {
    const counts = countFunctions(dump, perfMap, 10);
    const presenter = 'presentNotification src/areas/notifications/presenters.ts:44';
    const send = 'send fastify/lib/reply.js:120';
    assert.deepEqual(Object.fromEntries(counts.self), {
      // 300 + 100 at 0x2010 and 0x2018, 50 at 0x1010 (interpreted), a tenth a request.
      [presenter]: 45,
      'v8::internal::JsonStringify': 100,
      __memcpy_avx_unaligned_erms: 20,
      [send]: 4,
      Builtins_CallFunction_ReceiverIsAny: 1,
    });
    // The presenter: its own 450 and the 1,000 of its call to JSON.stringify, not its call into itself.
    // Fastify's send: its own 40 and the presenter it called (50).
    assert.deepEqual(Object.fromEntries(counts.inclusive), { [presenter]: 145, [send]: 9 });
    assert.deepEqual(Object.fromEntries(counts.byOrigin), {
      'V8 (C++)': 100,
      'src/areas/notifications': 45,
      libc: 20,
      fastify: 4,
      'V8 builtins': 1,
    });
  });

  it('tells where native code comes from', () => {
    assert.equal(originOf('bool v8::internal::JsonStringifier::SerializeString<false>', '/usr/bin/node'), 'V8 (C++)');
    assert.equal(originOf('node::StreamBase::WriteV', '/usr/bin/node'), 'Node (C++)');
    assert.equal(originOf('uv__io_poll', '/usr/bin/node'), 'libuv');
    assert.equal(originOf('EVP_DigestUpdate', '/usr/bin/node'), 'OpenSSL');
    assert.equal(originOf('0x0000000000abcdef', '???'), 'compiled code, unnamed');
    assert.equal(originOf('(anonymous) pg-protocol/dist/parser.js:40', ''), 'pg-protocol');
    assert.equal(originOf('f @fastify/ajv-compiler/index.js:3', ''), '@fastify/ajv-compiler');
    assert.equal(originOf('emit node:events:470', ''), 'Node (JavaScript)');
  });
});
