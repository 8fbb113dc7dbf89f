package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/prompts"
)

// Prompts returns mneme's prompt templates as MCP prompts, so that a person
// whose client has no sampling can run any step of the memory pipeline by
// hand with their own model. Arguments are the templates' fields (list
// fields one entry per line); the ontology and the current time are filled
// in when left empty. The handlers are safe for concurrent use.
func Prompts(d Deps) []server.ServerPrompt {
	d = d.withDefaults()
	var out []server.ServerPrompt
	for _, name := range prompts.Names() {
		desc, args := prompts.Describe(name)
		opts := []mcp.PromptOption{mcp.WithPromptDescription(desc)}
		for _, a := range args {
			aopts := []mcp.ArgumentOption{mcp.ArgumentDescription(a.Description)}
			if a.Required {
				aopts = append(aopts, mcp.RequiredArgument())
			}
			opts = append(opts, mcp.WithArgument(a.Name, aopts...))
		}
		out = append(out, server.ServerPrompt{
			Prompt: mcp.NewPrompt(string(name), opts...),
			Handler: func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				for _, a := range args {
					if a.Required && strings.TrimSpace(req.Params.Arguments[a.Name]) == "" {
						return nil, fmt.Errorf("prompt %s: argument %q is required: %s", name, a.Name, a.Description)
					}
				}
				text, err := prompts.Render(name, d.promptData(name, req.Params.Arguments))
				if err != nil {
					return nil, fmt.Errorf("prompt %s: %w", name, err)
				}
				return mcp.NewGetPromptResult(desc, []mcp.PromptMessage{
					mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(text)),
				}), nil
			},
		})
	}
	return out
}

// promptData builds a template's data from prompt arguments.
func (d Deps) promptData(name prompts.Name, args map[string]string) any {
	arg := func(k string) string { return strings.TrimSpace(args[k]) }
	ontology := arg("ontology")
	if ontology == "" {
		ontology = d.tree().Render()
	}
	now := arg("now")
	if now == "" {
		now = d.promptTime(d.Now())
	}
	switch name {
	case prompts.MemoryController:
		return prompts.ControllerData{Message: arg("message"), Conversation: arg("conversation")}
	case prompts.SelectTags:
		return prompts.SelectTagsData{Ontology: ontology, Items: lines(arg("items"))}
	case prompts.TimeFilter:
		return prompts.TimeFilterData{Message: arg("message"), Now: now}
	case prompts.RelevanceFilter:
		return prompts.RelevanceData{Question: arg("question"), Memories: promptItems(arg("memories"))}
	case prompts.KeyEvents:
		return prompts.KeyEventsData{Transcript: arg("transcript"), Now: now, Ontology: ontology}
	case prompts.ReviewMemories:
		return prompts.ReviewData{Tag: arg("tag"), Memories: promptItems(arg("memories"))}
	case prompts.OntologyExpansion:
		return prompts.ExpansionData{Ontology: ontology, Text: arg("text")}
	case prompts.PostThinking:
		return prompts.PostThinkingData{Transcript: arg("transcript"), Now: now, Ontology: ontology, Memories: promptItems(arg("memories"))}
	}
	return nil
}

// lines splits a list argument into its non-blank lines.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// promptItems reads memories given one per line as "id | date | text",
// "date | text" or just the text.
func promptItems(s string) []prompts.Item {
	var out []prompts.Item
	for _, l := range lines(s) {
		parts := strings.SplitN(l, "|", 3)
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		switch len(parts) {
		case 3:
			out = append(out, prompts.Item{Ref: parts[0], Time: parts[1], Text: parts[2]})
		case 2:
			out = append(out, prompts.Item{Time: parts[0], Text: parts[1]})
		default:
			out = append(out, prompts.Item{Text: l})
		}
	}
	return out
}
