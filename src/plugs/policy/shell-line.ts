// A shell command line as the approval policy sees it: every command it would run (those inside $(…), `…`,
// <(…), subshells, functions and `sh -c '…'` included), every redirection, and which commands share a pipe.

export interface ShellWord {
	/** As written, quotes and all. */
	text: string;
	/**
	 * The word with its quotes and escapes removed, when it holds no expansion ($VAR, $(…)); glob characters and
	 * an unquoted leading `~` are kept as written.
	 */
	literal?: string;
	/**
	 * The path the word names: its literal with a leading `~` expanded, and `$HOME` and variables assigned earlier
	 * in the line (`x=~; … $x`) replaced by their values; undefined past any other expansion.
	 */
	path?: string;
	/**
	 * What the path is known to start with: all of it when `path` is known, else the part before the first
	 * expansion whose value is known only when the line runs ("" when the word starts with one: `$DIR/x`).
	 */
	pathStart: string;
}

export interface ShellRedirect {
	/** The operator as written: ">", ">>", "&>", ">|", "<", "<<", … */
	op: string;
	target: ShellWord;
	/** The redirection writes its target (">", ">>", "&>", ">|", "<>", ">&file"); fd duplications like 2>&1 do not. */
	writes: boolean;
}

export interface ShellCommand {
	/** The command name first, then its arguments. Assignments before the name are not words. */
	words: ShellWord[];
	/** `NAME=value` prefixes, as written; a bare assignment (`PATH=./bin:$PATH`) is a command of no words. */
	assignments: string[];
	/** Its own redirections (a redirection after a compound command is only in ShellLine.redirects). */
	redirects: ShellRedirect[];
	/** Commands run to build its words: $(…), `…`, <(…), and the code `sh -c '…'` or `eval '…'` runs. */
	inner: ShellCommand[];
	/** Run in the background (`cmd &`), or part of something that is. */
	background: boolean;
	/** The name of the function whose body holds it. */
	inFunction?: string;
	/** What rules match: its assignments and words (literals where known, as written otherwise) joined by single spaces. */
	text: string;
	/** Offset of the command in the line it was parsed from (its source order). */
	start: number;
}

export interface ShellLine {
	/** Every command, nested ones included, in source order. */
	commands: ShellCommand[];
	/** Each pipeline of two or more stages: the commands of its stages, in order. */
	pipelines: ShellCommand[][];
	/** Every redirection in the line, those after compound commands included. */
	redirects: ShellRedirect[];
	/** False when the line did not parse cleanly: what was found is checked, but no rule can vouch for the whole line. */
	complete: boolean;
	/**
	 * What bash evaluates that loom cannot read before the line runs, each as written: arithmetic on variables
	 * (`$((x))`, `((…))`, `let`, array subscripts), `[[ -v … ]]` and arithmetic tests, `${x@P}`, `${!x}`, code in
	 * a variable or a string (`eval "$x"`, `trap`): only a rule covering every call of the tool allows such a line,
	 * and a deny rule on the tool's commands blocks it.
	 */
	unread: string[];
}

/** Shells that run the code given with -c, and read a script from standard input when given none. */
export const SHELLS: ReadonlySet<string> = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh"]);
/** Of SHELLS, those whose syntax and options are not POSIX sh's. */
export const NON_POSIX_SHELLS: ReadonlySet<string> = new Set(["fish", "csh", "tcsh"]);

/** Commands that write or move the files they name (their operands). */
export const FILE_WRITERS: ReadonlySet<string> = new Set(["cp", "mv", "tee", "tar", "zip", "ln", "install", "dd", "touch", "mkdir", "rm", "rmdir", "chmod", "chown", "truncate", "sed", "unzip"]);

/** Where a redirection's output goes without touching a file. */
export const NOT_FILES = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/** Writing redirections whose target is a file (not /dev/null, stdout, a terminal): those a write rule must allow. */
export function fileWrites(line: ShellLine): ShellRedirect[] {
	return line.redirects.filter((redirect) => redirect.writes && !NOT_FILES.test(redirect.target.path ?? redirect.target.text));
}

/** A command's name as run: its last path part (`/bin/rm` → `rm`); undefined when it is not known before running. */
export function commandName(words: readonly ShellWord[]): string | undefined {
	const first = words[0]?.literal;
	return first === undefined ? undefined : first.slice(first.lastIndexOf("/") + 1);
}
