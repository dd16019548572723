// SPDX-License-Identifier: MIT
// node: worker threads, child processes, files, timers, a signal handler.
// Prints what it saw; the native run is the reference.
'use strict';
const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');
const cp = require('child_process');
const fs = require('fs');
const crypto = require('crypto');

if (!isMainThread) {
	let s = 0;
	for (let i = 0; i < 2000000; i++) s = (s + i * workerData) % 1000003;
	parentPort.postMessage(s);
	return;
}

async function main() {
	const sums = await Promise.all([1, 2, 3].map((n) => new Promise((res, rej) => {
		const w = new Worker(__filename, { workerData: n });
		w.on('message', res);
		w.on('error', rej);
	})));
	console.log('workers', sums.join(' '));

	fs.writeFileSync('node-file', 'x'.repeat(100000));
	const h = crypto.createHash('sha256').update(fs.readFileSync('node-file')).digest('hex');
	fs.unlinkSync('node-file');
	console.log('file', h);

	console.log('execSync', cp.execSync('echo hi; echo there | tr a-z A-Z').toString().trim());
	const r = cp.spawnSync('sh', ['-c', 'exit 6']);
	console.log('spawnSync status', r.status);

	// (a signal listener alone does not keep the event loop alive)
	await new Promise((res) => {
		const keep = setInterval(() => {}, 1000);
		process.once('SIGUSR2', () => {
			console.log('SIGUSR2 handled');
			clearInterval(keep);
			res();
		});
		process.kill(process.pid, 'SIGUSR2');
	});
	const c = cp.spawn('sleep', ['100']);
	c.on('exit', (code, sig) => {
		console.log('child', code, sig);
		process.exitCode = 2;
	});
	c.kill('SIGTERM');
}
main();
