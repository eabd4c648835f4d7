// Package mcpserver is the session store's MCP surface (§13 of the core
// specification): one MCP tool per session store operation of §7, so that
// an AI client or a script can list campaigns, play, save, load, branch and
// inspect games through the same store the native host serves.
//
// It is an adapter and nothing more. Every tool decodes its arguments,
// calls one method of session.Store and returns the result as it came back:
// the store decides legality, gates visibility and builds the projection.
// Sessions a tool creates are created for the "ai" audience (§9), so
// get_view returns the ai projection. A failure the store reports as a
// session.Error becomes a tool error whose text is a JSON object carrying
// its reason code (§12); arguments that are not what a tool's input schema
// says are refused as malformed_input, and action parameters that are not a
// flat record of strings, numbers and booleans as invalid_params, before
// the store is called. A refused action is not a tool error: the store
// answers it with ok false and its reasons, and so does the tool.
//
// The host-only operations of §7's SessionLayer — forgetting a session and
// capturing one as a fixture — have no tool, and neither do exporting and
// importing a save file: a capture and a save envelope both carry the seed,
// which never reaches a client, and an imported envelope is a state the
// client wrote itself. docs/mcp.md holds the tool table.
package mcpserver
