// Package cli is mneme's command line: it parses arguments, turns
// config.Config into library options, opens the memory store and either
// serves it over MCP (serve) or calls it directly (remember, recall, ...).
//
// Run is the only entry point; it is safe to call concurrently as long as the
// calls do not both serve over stdio (mcp-go keeps one stdio session per
// process).
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/mneme-mcp/mneme/memory"
)

// Exit codes of Run.
const (
	exitOK    = 0 // success
	exitError = 1 // the command failed: not found, invalid input, store trouble
	exitUsage = 2 // bad flags, arguments or configuration values
)

// command is one subcommand.
type command struct {
	name    string
	args    string // synopsis of the arguments after the name
	summary string
	// run parses args with a FlagSet of its own (the global flags added by
	// app.parse) and does the work.
	run func(a *app, args []string) error
}

// commands lists the subcommands in the order help shows them.
func commands() []command {
	return []command{
		{"serve", "[--transport stdio|http|sse] [--addr HOST:PORT] [--scope S]", "serve the store over MCP: stdin/stdout (the default command), streamable HTTP or SSE", runServe},
		{"remember", "TEXT [--tag T]... [--time RFC3339] [--kind K] [--scope S] [--subject S --predicate P --object O] [--thread T]", "store a memory", runRemember},
		{"recall", "QUERY [--limit N] [--scope S]... [--when EXPR] [--tag T]... [--include-archived] [--no-reinforce]", "find memories", runRecall},
		{"forget", "ID... [--purge] [--dry-run]", "archive memories (or delete them for good with --purge)", runForget},
		{"export", "[--scope S] [-o FILE]", "write every memory (archived ones and history too) as JSON Lines", runExport},
		{"import", "FILE [--scope S]", "read a mneme export or a memory.json of the reference memory server", runImport},
		{"stats", "", "summarise the store", runStats},
		{"reembed", "", "recompute every vector with the configured embedder", runReembed},
		{"bench", "--memories FILE --queries FILE [--k 1,5,10] [--scopes a,b]", "measure recall quality on a dataset in a temporary store", runBench},
		{"version", "", "print the version", runVersion},
		{"help", "[COMMAND]", "show help", runHelp},
	}
}

// app carries what every subcommand needs: the process's environment and
// streams, and the global flags once parsed.
type app struct {
	ctx    context.Context
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	cmd    string // the subcommand being run
	g      globals
	fs     *flag.FlagSet // the subcommand's flags, after parse
}

// Run runs mneme with args (without the program name) and returns the exit
// code: 0 on success, 1 when the command failed, 2 on a usage or
// configuration error. getenv is the environment lookup (os.Getenv in main);
// nothing else of the process environment is read.
func Run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{ctx: ctx, getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr}

	name := "serve"
	if len(args) > 0 {
		switch {
		case args[0] == "-h" || args[0] == "-help" || args[0] == "--help":
			name, args = "help", args[1:]
		case !strings.HasPrefix(args[0], "-"):
			name, args = args[0], args[1:]
		}
	}
	var cmd *command
	for _, c := range commands() {
		if c.name == name {
			cmd = &c
			break
		}
	}
	if cmd == nil {
		fmt.Fprintf(stderr, "mneme: unknown command %q\n\n", name)
		a.usage(stderr)
		return exitUsage
	}
	a.cmd = cmd.name
	err := cmd.run(a, args)
	return a.exitCode(err)
}

// usageError marks an error as the caller's (bad flag, argument or
// configuration value): exit code 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usageError with a formatted message.
func usagef(format string, v ...any) error { return usageError{fmt.Errorf(format, v...)} }

// errFlagParse says the flag package has already printed its message.
var errFlagParse = errors.New("flag parse error")

// exitCode prints err (if any) and maps it to an exit code.
func (a *app) exitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errFlagParse):
		return exitUsage
	}
	fmt.Fprintf(a.stderr, "mneme %s: %v\n", a.cmd, err)
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(a.stderr, "run 'mneme help %s' for usage\n", a.cmd)
		return exitUsage
	}
	return exitError
}

// parse registers the global flags on fs, parses args (flags may come before
// or after positional arguments) and returns the positional arguments.
func (a *app) parse(fs *flag.FlagSet, args []string) ([]string, error) {
	a.g.register(fs)
	fs.SetOutput(a.stderr)
	fs.Usage = func() { a.commandUsage(fs) }
	if err := fs.Parse(reorder(fs, args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errFlagParse // the flag package printed the message and usage
	}
	a.fs = fs
	return fs.Args(), nil
}

// newFlagSet returns an empty FlagSet for the current subcommand.
func (a *app) newFlagSet() *flag.FlagSet {
	return flag.NewFlagSet("mneme "+a.cmd, flag.ContinueOnError)
}

// printJSON writes v as indented JSON to stdout.
func (a *app) printJSON(v any) error {
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// storeError turns a store error into what the person at the terminal can
// act on: the store's own sentences for invalid input, not-found and a model
// mismatch (which names `mneme reembed`).
func storeError(op string, err error) error {
	switch {
	case errors.Is(err, memory.ErrInvalid), errors.Is(err, memory.ErrNotFound), errors.Is(err, memory.ErrModelMismatch):
		return err
	}
	return fmt.Errorf("%s: %w", op, err)
}

// usage prints the list of commands.
func (a *app) usage(w io.Writer) {
	fmt.Fprint(w, "mneme: long-term memory for LLM clients over MCP\n\nUsage:\n  mneme [COMMAND] [ARGS] [FLAGS]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nGlobal flags (every command):\n")
	printFlags(w, globalFlags(), nil)
	fmt.Fprint(w, "\nFlags may come before or after the positional arguments; '--' ends the flags.\nRun 'mneme help COMMAND' for a command's flags.\n")
}

// commandUsage prints one command's synopsis and flags.
func (a *app) commandUsage(fs *flag.FlagSet) {
	for _, c := range commands() {
		if c.name == a.cmd {
			fmt.Fprintf(a.stderr, "Usage: mneme %s %s\n\n%s\n\nFlags:\n", c.name, c.args, c.summary)
		}
	}
	printFlags(a.stderr, fs, globalFlags())
	fmt.Fprint(a.stderr, "\nGlobal flags: --json, --store, --db, --now, --timezone, --config, --log-level ('mneme help').\n")
}

// globalFlags returns a FlagSet with only the global flags, for help.
func globalFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("global", flag.ContinueOnError)
	new(globals).register(fs)
	return fs
}

// printFlags lists the flags of fs in the double-dash form mneme's help
// uses, leaving out those also defined in skip.
func printFlags(w io.Writer, fs, skip *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		if skip != nil && skip.Lookup(f.Name) != nil {
			return
		}
		name, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + name
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			usage += fmt.Sprintf(" (default %q)", f.DefValue)
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", line, usage)
	})
}

// runHelp prints general help or one command's help on stdout.
func runHelp(a *app, args []string) error {
	fs := a.newFlagSet()
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		a.usage(a.stdout)
		return nil
	}
	for _, c := range commands() {
		if c.name == pos[0] && c.name != "help" {
			sub := &app{ctx: a.ctx, getenv: a.getenv, stdin: a.stdin, stdout: a.stdout, stderr: a.stdout, cmd: c.name}
			return c.run(sub, []string{"--help"})
		}
	}
	return usagef("unknown command %q", pos[0])
}
