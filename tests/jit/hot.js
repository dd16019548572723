// SPDX-License-Identifier: MIT
// The node version of hot.lua: a function hot enough for TurboFan, file
// and pipe I/O, children.  argv[2]: a directory.
'use strict';
const fs = require('fs'), cp = require('child_process'), path = require('path');
const dir = process.argv[2];

function mix(n) {
	let h = 0;
	for (let i = 1; i <= n; i++)
		h = (h * 31 + i) % 1000003;
	return h;
}
let s = 0;
for (let k = 0; k < 20000; k++)
	s = (s + mix(100)) % 1000003;
console.log('hash', s);
// bit 4 (16): running optimized machine code, in V8 10 (node 18) and
// later alike (needs --allow-natives-syntax)
console.log('jit compiled', (%GetOptimizationStatus(mix) & 16) !== 0);

const f = path.join(dir, 'data.txt');
let text = '';
for (let i = 1; i <= 100; i++)
	text += `${i} ${i * i}\n`;
fs.writeFileSync(f, text);
let sum = 0;
for (const line of fs.readFileSync(f, 'utf8').trim().split('\n'))
	sum += Number(line.split(' ')[1]);
console.log('sum', sum);

console.log('lines', cp.execSync(`wc -l < ${f}`).toString().trim());
const r = cp.spawnSync('sh', ['-c', 'cat; exit 3'], { input: 'through a pipe\n' });
console.log('child', r.status, r.stdout.toString().trim());

// the probe, a file the test made: read it, then remove it (the test
// makes that one unlink fail: -e inject=unlink:error=ENOENT:when=1)
const probe = path.join(dir, 'probe');
console.log('probe', fs.readFileSync(probe, 'utf8').trim());
let removed = 'ok';
try {
	fs.unlinkSync(probe);
} catch (e) {
	removed = e.code;
}
console.log('remove', removed);
console.log('probe', fs.existsSync(probe) ? 'still there' : 'gone');
