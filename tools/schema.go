package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mneme-mcp/mneme/memory"
)

// withBounds adds JSON Schema keywords (minimum, maximum, maxItems, ...) to
// properties of the tool's input schema, which mcp-go's struct tags cannot
// express (they take a description and enum values only). It must follow
// mcp.WithInputSchema. A name that is not a property is a bug, caught by
// the schema snapshots and TestSchemaBounds.
func withBounds(bounds map[string]map[string]any) mcp.ToolOption {
	return func(t *mcp.Tool) {
		var schema map[string]any
		if err := json.Unmarshal(t.RawInputSchema, &schema); err != nil {
			return
		}
		props, _ := schema["properties"].(map[string]any)
		for name, kw := range bounds {
			p, ok := props[name].(map[string]any)
			if !ok {
				continue
			}
			for k, v := range kw {
				p[k] = v
			}
		}
		if data, err := json.Marshal(schema); err == nil {
			t.RawInputSchema = data
		}
	}
}

// schemaFailed starts the text mcp-go gives a call whose arguments break
// the input schema; its details are Go values (&{Got:string
// Want:[boolean]}) and quote the offending value whole.
const schemaFailed = "input schema validation failed: "

// schemaDetail starts one violation as mcp-go renders it: "<pointer>: &{"
// after the prefix or after "; ". The details are split here rather than
// at every "; ", which the offending value itself may hold.
var schemaDetail = regexp.MustCompile(`(?:^|; )(/\S*|<root>): &\{`)

// schemaTypes are the JSON Schema type names.
var schemaTypes = map[string]bool{"string": true, "number": true, "integer": true, "boolean": true, "array": true, "object": true, "null": true}

// maxSchemaDetails bounds the violations named in one message.
const maxSchemaDetails = 5

// schemaErrorText rewrites mcp-go's input-schema validation message into
// a short sentence naming the arguments and what they must be; ok is false
// for any other text.
func schemaErrorText(text string) (string, bool) {
	rest, ok := strings.CutPrefix(text, schemaFailed)
	if !ok {
		return "", false
	}
	starts := schemaDetail.FindAllStringSubmatchIndex(rest, maxSchemaDetails+1)
	if len(starts) == 0 {
		return bounded("invalid arguments: they do not fit the tool's input schema: " + memory.Clip(rest)), true
	}
	var parts []string
	for i, m := range starts {
		if i == maxSchemaDetails {
			parts = append(parts, "…")
			break
		}
		end := len(rest)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		parts = append(parts, schemaPart(rest[m[2]:m[3]], strings.TrimSuffix(rest[m[1]:end], "}")))
	}
	return bounded("invalid arguments: " + strings.Join(parts, "; ") + ": fix them as the tool's input schema says and call again"), true
}

// schemaPart rewrites one violation at the JSON pointer ptr, whose detail
// body is mcp-go's %+v of the validator's error kind without its braces.
func schemaPart(ptr, body string) string {
	arg := strings.ReplaceAll(strings.TrimPrefix(ptr, "/"), "/", ".")
	name := "argument " + arg
	if ptr == "<root>" {
		name = "the arguments"
	}
	if list, ok := strings.CutPrefix(body, "Missing:"); ok {
		return fmt.Sprintf("%s: %s missing (required)", name, words(list))
	}
	if list, ok := strings.CutPrefix(body, "Properties:"); ok {
		return fmt.Sprintf("%s: unknown %s (leave it out)", name, words(list))
	}
	got, want, ok := strings.Cut(strings.TrimPrefix(body, "Got:"), " Want:")
	if !ok || !strings.HasPrefix(body, "Got:") {
		return fmt.Sprintf("%s does not fit the tool's input schema", name)
	}
	if wants := strings.Fields(strings.Trim(want, "[]")); schemaTypes[got] && len(wants) > 0 && allTypes(wants) {
		if i := slices.Index(wants, "null"); i >= 0 && len(wants) > 1 { // "boolean or null" reads better
			wants = append(slices.Delete(wants, i, i+1), "null")
		}
		return fmt.Sprintf("%s must be %s, not %s", name, strings.Join(wants, " or "), got)
	}
	if strings.HasPrefix(want, "[") {
		return fmt.Sprintf("%s %s is not one of %s", name, memory.Quote(got), memory.Clip(strings.Join(strings.Fields(strings.Trim(want, "[]")), ", ")))
	}
	return fmt.Sprintf("%s is %s, outside the limit %s", name, number(got), number(want))
}

// words renders "[a b]" as "a, b", cut short.
func words(list string) string {
	return memory.Clip(strings.Join(strings.Fields(strings.Trim(list, "[]")), ", "))
}

// number renders a limit or the value that broke it short: a big.Rat
// "50/1" is 50, a long number is in e-notation.
func number(s string) string {
	s = strings.TrimSuffix(s, "/1")
	if len(s) > 15 {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return strconv.FormatFloat(f, 'g', 4, 64)
		}
	}
	return memory.Clip(s)
}

func allTypes(ws []string) bool {
	for _, w := range ws {
		if !schemaTypes[w] {
			return false
		}
	}
	return true
}

// bindFailed starts the text mcp-go's typed handler gives arguments that
// passed the schema but do not decode into the input struct (a number like
// 1e-400 where an int goes).
const bindFailed = "failed to bind arguments: "

// bindDetail is encoding/json's message for a value of the wrong kind.
var bindDetail = regexp.MustCompile(`cannot unmarshal (\S+) (?:\S+ )?into Go struct field \w+\.(\S+) of type (\S+)`)

// bindErrorText rewrites a binding failure into a short sentence; ok is
// false for any other text.
func bindErrorText(text string) (string, bool) {
	rest, ok := strings.CutPrefix(text, bindFailed)
	if !ok {
		return "", false
	}
	detail := "they do not fit the tool's input schema"
	if m := bindDetail.FindStringSubmatch(rest); m != nil {
		detail = fmt.Sprintf("argument %s must be %s, not that %s", memory.Clip(m[2]), goKind(m[3]), m[1])
	}
	return "invalid arguments: " + detail + ": fix them as the tool's input schema says and call again", true
}

// goKind names a Go type of an input field as JSON does.
func goKind(typ string) string {
	switch {
	case strings.HasPrefix(typ, "int"), strings.HasPrefix(typ, "uint"):
		return "a whole number"
	case strings.HasPrefix(typ, "float"):
		return "a number"
	case typ == "string":
		return "a string"
	case typ == "bool":
		return "true or false"
	}
	return "of type " + memory.Clip(typ)
}

// shortenSchemaErrors is an after-call-tool hook that rewrites mcp-go's
// input-schema validation messages (see schemaErrorText), which no tool
// handler sees: validation runs before it.
func shortenSchemaErrors(hooks *server.Hooks) {
	hooks.AddAfterCallTool(func(_ context.Context, _ any, _ *mcp.CallToolRequest, result any) {
		res, ok := result.(*mcp.CallToolResult)
		if !ok || res == nil || !res.IsError {
			return
		}
		for i, c := range res.Content {
			if tc, ok := c.(mcp.TextContent); ok {
				text, ok := schemaErrorText(tc.Text)
				if !ok {
					text, ok = bindErrorText(tc.Text)
				}
				if ok {
					tc.Text = text
					res.Content[i] = tc
				}
			}
		}
	})
}
