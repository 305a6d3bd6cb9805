// tee.mjs runs an MCP stdio server and records, byte for byte, what the
// client sends it (to IN) and what it answers (to OUT), so that the interop
// tests can compare what mcpservers loaded with what the server really sent.
//
//	node tee.mjs IN OUT command [args...]
//
// Each chunk is written to its log synchronously before it is passed on, so
// whatever the client has read is already in OUT.
import { spawn } from "node:child_process";
import { openSync, writeSync } from "node:fs";

const [inLog, outLog, command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write("usage: node tee.mjs IN OUT command [args...]\n");
  process.exit(2);
}
const inFd = openSync(inLog, "a");
const outFd = openSync(outLog, "a");
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });

process.stdin.on("data", (chunk) => {
  writeSync(inFd, chunk);
  child.stdin.write(chunk);
});
process.stdin.on("end", () => child.stdin.end());
child.stdin.on("error", () => {});
child.stdout.on("data", (chunk) => {
  writeSync(outFd, chunk);
  process.stdout.write(chunk);
});
for (const sig of ["SIGTERM", "SIGINT"]) {
  process.on(sig, () => child.kill(sig));
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
child.on("error", (err) => {
  process.stderr.write(`tee.mjs: ${err.message}\n`);
  process.exit(127);
});
