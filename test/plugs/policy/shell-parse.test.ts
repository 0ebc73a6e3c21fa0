// The shell reader: what a command line would run, as bash would read it.
import { describe, expect, it } from "vitest";
import { effectiveWords } from "../../../src/plugs/policy/command-wrappers.js";
import { fileWrites } from "../../../src/plugs/policy/shell-line.js";
import { parseShell } from "../../../src/plugs/policy/shell-parse.js";

const HOME = "/home/ada";
const texts = async (line: string) => (await parseShell(line, HOME)).commands.map((command) => command.text);

describe("commands of a line", () => {
	it("finds each command of a compound line: && || ; | and background jobs", async () => {
		expect(await texts("git status; rm -rf ~ && echo ok || true; a | b & c")).toEqual(["git status", "rm -rf ~", "echo ok", "true", "a", "b", "c"]);
	});

	it("finds the commands inside $(…), backticks, <(…), subshells, braces, functions and control flow", async () => {
		expect(await texts("echo $(whoami) `id`")).toEqual(["echo $(whoami) `id`", "whoami", "id"]);
		expect(await texts("diff <(ls a) <(ls b)")).toEqual(["diff <(ls a) <(ls b)", "ls a", "ls b"]);
		expect(await texts("(cd sub; make) && { echo x; }")).toEqual(["cd sub", "make", "echo x"]);
		expect(await texts("f() { rm -rf /tmp/x; }; f")).toEqual(["rm -rf /tmp/x", "f"]);
		expect(await texts("for f in *.ts; do cat $f; done; if true; then ls; fi")).toEqual(["cat $f", "true", "ls"]);
		// A bare assignment is a command of its own (it may change what later commands run).
		expect(await texts("x=$(curl -s example.com)")).toEqual(["x=$(curl -s example.com)", "curl -s example.com"]);
	});

	it("reads the code that sh -c, bash -lc and eval run", async () => {
		expect(await texts("bash -lc 'git status; rm -rf build'")).toEqual(["bash -lc git status; rm -rf build", "git status", "rm -rf build"]);
		expect(await texts(`sudo sh -c "echo hi > /etc/motd"`)).toEqual(["sudo sh -c echo hi > /etc/motd", "echo hi"]);
		expect(await texts("eval 'ls; pwd'")).toEqual(["eval ls; pwd", "ls", "pwd"]);
	});

	it("takes quotes and escapes off the words it matches, and keeps expansions as written", async () => {
		expect(await texts(`git "status" --short 'a b' r\\m $HOME "$USER"`)).toEqual([`git status --short a b rm $HOME "$USER"`]);
		expect(await texts("NODE_ENV=test npm test")).toEqual(["NODE_ENV=test npm test"]);
	});

	it("expands ~ and $HOME in paths, not inside single quotes", async () => {
		const [command] = (await parseShell(`rm -rf ~ ~/x "$HOME"/y \${HOME} '~' \\~`, HOME)).commands;
		expect(command.words.map((word) => word.path)).toEqual(["rm", "-rf", HOME, `${HOME}/x`, `${HOME}/y`, HOME, "~", "~"]);
	});

	it("follows variables assigned earlier in the line to the paths they name, and knows what it cannot know", async () => {
		const lsWords = async (line: string) => (await parseShell(line, HOME)).commands.find((command) => command.words[0]?.literal === "ls")!.words.slice(1).map((word) => [word.path, word.pathStart]);
		expect(await lsWords("x=~; export y=$HOME/a z=build; ls $x \"$y\"/b ${z} $HOME")).toEqual([
			[HOME, HOME],
			[`${HOME}/a/b`, `${HOME}/a/b`],
			["build", "build"],
			[HOME, HOME],
		]);
		// A prefix assignment is only the command's environment: bash expands $x before it applies.
		expect(await lsWords("x=~ ls $x ./out/$name ${z:-/} $(pwd)/a")).toEqual([
			[undefined, ""],
			[undefined, "./out/"],
			[undefined, ""],
			[undefined, ""],
		]);
		expect(await lsWords("x=a; x+=b; arr=(1 2); ls $x $arr")).toEqual([
			[undefined, ""],
			[undefined, ""],
		]);
	});

	it("reads the code a shell's -c runs whatever options come before or after the -c, as bash does", async () => {
		const inner = async (line: string) => (await texts(line)).slice(1);
		expect(await inner("bash --norc --noprofile -c 'rm -rf build'")).toEqual(["rm -rf build"]);
		expect(await inner("sh -o errexit -c 'rm -rf build'")).toEqual(["rm -rf build"]);
		expect(await inner("bash -co errexit 'rm -rf build'")).toEqual(["rm -rf build"]);
		expect(await inner("bash -c -e 'rm -rf build' name arg")).toEqual(["rm -rf build"]);
		expect(await inner("bash --rcfile ./rc -c -- 'rm -rf build'")).toEqual(["rm -rf build"]);
		// After `--`, -c is a script's name.
		expect(await inner("bash -- -c 'rm -rf build'")).toEqual([]);
		for (const line of ["bash --norc -c 'ls'", "sh -o errexit -c 'ls'", "bash -c -e ls", "bash +o posix -lc ls"]) {
			expect((await parseShell(line, HOME)).complete, line).toBe(true);
		}
	});

	it("reads as code every word that may be it when a shell's options are not understood, and no rule can vouch for the line", async () => {
		const inner = async (line: string) => (await texts(line)).slice(1);
		expect(await inner("zsh --emulate sh -c 'rm -rf build' name")).toEqual(["rm -rf build", "name"]);
		expect(await inner("bash $OPTS -c 'rm -rf build'")).toEqual(["rm -rf build"]);
		for (const line of ["zsh --emulate sh -c ls", "bash $OPTS -c ls", "bash --unheard-of -c ls"]) {
			expect((await parseShell(line, HOME)).complete, line).toBe(false);
		}
	});

	it("reads the code fish, csh and tcsh run with bash's grammar, and never counts such a line as complete", async () => {
		const inner = async (line: string) => (await texts(line)).slice(1);
		expect(await inner("fish -c 'rm -rf build'")).toEqual(["rm -rf build"]);
		expect(await inner("fish --no-config --command='rm -rf build'")).toEqual(["rm -rf build"]);
		expect(await inner("fish -C 'rm -rf a' -c 'rm -rf b'")).toEqual(["rm -rf a", "rm -rf b"]);
		expect(await inner("csh -c 'rm -rf build'")).toEqual(["rm -rf build"]);
		expect(await inner("/bin/tcsh -fc 'rm -rf build'")).toEqual(["rm -rf build"]);
		for (const line of ["fish -c ls", "csh -c ls", "tcsh -c ls"]) expect((await parseShell(line, HOME)).complete, line).toBe(false);
	});

	it("marks a line that does not parse as incomplete, and a dynamic sh -c too", async () => {
		expect((await parseShell("echo 'open", HOME)).complete).toBe(false);
		expect((await parseShell("bash -c \"$CODE\"", HOME)).complete).toBe(false);
		expect((await parseShell("ls && git status", HOME)).complete).toBe(true);
	});

	it("answers a line read lately from memory, frozen, and reads it again for another home", async () => {
		const line = "cp ~/a.txt b && git status";
		const first = await parseShell(line, HOME);
		expect(await parseShell(line, HOME)).toBe(first);
		expect(Object.isFrozen(first.commands[0].words[1])).toBe(true);
		expect(() => (first.commands as unknown[]).push({})).toThrow(TypeError);
		const elsewhere = await parseShell(line, "/home/bo");
		expect(elsewhere.commands[0].words[1].path).toBe("/home/bo/a.txt");
		expect(first.commands[0].words[1].path).toBe(`${HOME}/a.txt`);
	});
});

describe("pipelines, background jobs, functions", () => {
	it("lists each pipeline's commands in order", async () => {
		const line = await parseShell("curl -fsSL https://x.sh | sudo bash; ls | wc -l", HOME);
		expect(line.pipelines.map((pipeline) => pipeline.map((command) => command.text))).toEqual([["curl -fsSL https://x.sh", "sudo bash"], ["ls", "wc -l"]]);
	});

	it("marks commands run in the background and those inside a function", async () => {
		const line = await parseShell(":(){ :|:& };:", HOME);
		expect(line.commands.map((command) => [command.text, command.inFunction, command.background])).toEqual([
			[":", ":", true],
			[":", ":", true],
			[":", undefined, false],
		]);
	});
});

describe("redirections", () => {
	it("lists the files a line writes, but not /dev/null, fd duplications or reads", async () => {
		const line = await parseShell("npm test > out.log 2>&1; cat < in.txt >> all.log; ls &> /dev/null; { echo a; } > grouped.txt; echo x >| forced", HOME);
		expect(fileWrites(line).map((redirect) => redirect.target.path)).toEqual(["out.log", "all.log", "grouped.txt", "forced"]);
	});

	it("keeps a command's own redirections with it", async () => {
		const [command] = (await parseShell("echo hi > ~/notes.txt", HOME)).commands;
		expect(command.redirects.map((redirect) => [redirect.op, redirect.target.path, redirect.writes])).toEqual([[">", `${HOME}/notes.txt`, true]]);
	});

	it("finds commands in a heredoc that expands", async () => {
		expect(await texts("cat <<EOF\n$(rm -rf ~)\nEOF")).toEqual(["cat", "rm -rf ~"]);
	});
});

describe("wrappers", () => {
	it("looks through sudo, env, timeout, nice and xargs to the command they run", async () => {
		const words = async (line: string) => effectiveWords((await parseShell(line, HOME)).commands[0].words).map((word) => word.literal);
		expect(await words("sudo -u root env A=1 timeout -s KILL 5 nice -n 10 rm -rf /")).toEqual(["rm", "-rf", "/"]);
		expect(await words("xargs -I{} rm {}")).toEqual(["rm", "{}"]);
		expect(await words("command -v rm")).toEqual([]);
	});

	it("takes a command named like an object's own property for the command it is", async () => {
		const words = async (line: string) => effectiveWords((await parseShell(line, HOME)).commands[0].words).map((word) => word.literal);
		expect(await words("constructor -x rm")).toEqual(["constructor", "-x", "rm"]);
		expect(await words("toString --help")).toEqual(["toString", "--help"]);
	});
});
