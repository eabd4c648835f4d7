package mcpserver

import (
	"context"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

// ListCampaignsInput is list_campaigns' arguments.
type ListCampaignsInput struct {
	ProfileID string `json:"profileId,omitempty" jsonschema:"a profile whose progress (endings found of how many) each summary carries; omit for none"`
	Locale    string `json:"locale,omitempty" jsonschema:"the locale of the title strings, e.g. fr; omit for the campaign's default"`
}

// SessionInput names a session.
type SessionInput struct {
	SessionID string `json:"sessionId" jsonschema:"the session, as create_session, load_game or branch_session returned it"`
}

// GetStringsInput is get_strings' arguments.
type GetStringsInput struct {
	SessionID string `json:"sessionId" jsonschema:"the session whose string table to return"`
	Locale    string `json:"locale,omitempty" jsonschema:"the locale, e.g. fr; omit for the campaign's default"`
}

// StringsOutput is get_strings' result: every key a response for the
// session carried, resolved to its text.
type StringsOutput struct {
	Strings map[core.LocKey]string `json:"strings" jsonschema:"LocKey to text"`
}

// ListSavesInput is list_saves' arguments.
type ListSavesInput struct {
	ProfileID string `json:"profileId" jsonschema:"the profile whose saves to list"`
}

// SavesOutput is list_saves' result, newest first.
type SavesOutput struct {
	Saves []session.SaveSummary `json:"saves" jsonschema:"newest first, then by saveId"`
}

// ActionInput is preview_action's and submit_action's arguments.
type ActionInput struct {
	SessionID string      `json:"sessionId" jsonschema:"the session to act in"`
	ActionID  string      `json:"actionId" jsonschema:"an id from the scene's actions, e.g. a story choice or plan.add"`
	Params    core.Params `json:"params,omitempty" jsonschema:"the action's parameters: a flat record of strings, numbers and booleans, e.g. {\"activity\":\"bake_bread\",\"count\":2}"`
}

// CreateSessionInput is create_session's arguments. The session is created
// for the ai audience.
type CreateSessionInput struct {
	CampaignID string `json:"campaignId" jsonschema:"a campaignId from list_campaigns"`
	Seed       string `json:"seed,omitempty" jsonschema:"the game's seed, for a reproducible game; omit and the store mints and records one"`
	ProfileID  string `json:"profileId,omitempty" jsonschema:"the profile that keeps this game's achievements and endings; omit for an anonymous game"`
	Audience   string `json:"audience,omitempty" jsonschema:"whose projection the session serves: ai (the default) or player"`
}

// LoadGameInput is load_game's arguments.
type LoadGameInput struct {
	SaveID string `json:"saveId" jsonschema:"a saveId from save_game or list_saves"`
}

// DeleteSaveInput is delete_save's arguments.
type DeleteSaveInput struct {
	ProfileID       string `json:"profileId" jsonschema:"the profile that owns the save"`
	SaveID          string `json:"saveId" jsonschema:"the save to delete"`
	ExpectedSavedAt string `json:"expectedSavedAt" jsonschema:"the savedAt list_saves or save_game reported; a save written since is not deleted"`
}

// DeleteSaveOutput is delete_save's result.
type DeleteSaveOutput struct {
	Deleted string `json:"deleted" jsonschema:"the saveId that was removed"`
}

// BranchSessionInput is branch_session's arguments.
type BranchSessionInput struct {
	SessionID     string `json:"sessionId" jsonschema:"the session to branch; it is left untouched"`
	AtActionCount int    `json:"atActionCount" jsonschema:"how many logged actions the branch keeps: 0 is the start, the log's length is now"`
}

// toolSet is every tool, in §7's order: the queries, then the commands.
var toolSet = []tool{
	def("list_campaigns", "ListCampaigns", true,
		"List the campaigns this server plays: id, kind and title key, with the strings that render the titles, and a profile's progress when one is given.",
		func(ctx context.Context, s *session.Store, in ListCampaignsInput) (session.Catalog, error) {
			return s.ListCampaigns(ctx, in.ProfileID, in.Locale)
		}),
	def("get_scene", "GetScene", true,
		"The session's current scene: its text, its status, the actions available now (with the reason for each one that is not) and its view.",
		func(ctx context.Context, s *session.Store, in SessionInput) (core.Scene, error) {
			return s.GetScene(ctx, in.SessionID)
		}),
	def("get_summary", "Summary", true,
		"What the session plays and how far it has come, without rendering it: its campaignId, kindId and how many actions its log holds.",
		func(ctx context.Context, s *session.Store, in SessionInput) (session.SessionSummary, error) {
			return s.Summary(ctx, in.SessionID)
		}),
	def("get_view", "GetView", true,
		"The session's projection for its audience (ai for sessions this server creates): the kind's view of the game, never its raw state.",
		func(ctx context.Context, s *session.Store, in SessionInput) (core.PlayerView, error) {
			return s.GetView(ctx, in.SessionID)
		}),
	def("get_strings", "GetStrings", true,
		"The string table that resolves every LocKey a response for this session carried: scene text, action labels, reasons, messages.",
		func(ctx context.Context, s *session.Store, in GetStringsInput) (StringsOutput, error) {
			t, err := s.GetStrings(ctx, in.SessionID, in.Locale)
			return StringsOutput{Strings: t}, err
		}),
	def("list_saves", "ListSaves", true,
		"A profile's saves, newest first: saveId, campaignId, savedAt and how many actions each had.",
		func(ctx context.Context, s *session.Store, in ListSavesInput) (SavesOutput, error) {
			saves, err := s.ListSaves(ctx, in.ProfileID)
			if saves == nil {
				saves = []session.SaveSummary{}
			}
			return SavesOutput{Saves: saves}, err
		}),
	def("preview_action", "PreviewAction", true,
		"Resolve an action without taking it: what submit_action would answer now, with nothing written.",
		func(ctx context.Context, s *session.Store, in ActionInput) (session.ActionResult, error) {
			return s.PreviewAction(ctx, in.SessionID, in.ActionID, in.Params)
		}),
	def("create_session", "CreateSession", false,
		"Start a game of a campaign, for the ai audience unless audience says player. Returns the sessionId and the first scene.",
		func(ctx context.Context, s *session.Store, in CreateSessionInput) (session.SessionHandle, error) {
			audience := core.Audience(in.Audience)
			if audience == "" {
				audience = core.AudienceAI
			}
			return s.CreateSession(ctx, session.CreateSessionConfig{
				CampaignID: in.CampaignID, Seed: in.Seed, ProfileID: in.ProfileID, Audience: audience,
			})
		}),
	def("resume_session", "ResumeSession", false,
		"Return to a session: its sessionId and scene, after it has taken up any newer content the host offers, with notices saying whether the game adopted the campaign's new version or keeps playing its own.",
		func(ctx context.Context, s *session.Store, in SessionInput) (session.SessionHandle, error) {
			return s.Resume(ctx, in.SessionID)
		}),
	def("submit_action", "SubmitAction", false,
		"Take an action: ok with the new scene and the visible changes and messages, or ok false with the reasons it was refused.",
		func(ctx context.Context, s *session.Store, in ActionInput) (session.ActionResult, error) {
			return s.SubmitAction(ctx, in.SessionID, in.ActionID, in.Params)
		}),
	def("save_game", "SaveGame", false,
		"Save the session's game to a new save. Returns its saveId, savedAt and savedAtSeq.",
		func(ctx context.Context, s *session.Store, in SessionInput) (session.SaveHandle, error) {
			return s.SaveGame(ctx, in.SessionID)
		}),
	def("load_game", "LoadGame", false,
		"Start a new session from a save. Returns the new sessionId and its scene, with notices when the save was made on an older version of its campaign (migrated, adopted, or kept on that version).",
		func(ctx context.Context, s *session.Store, in LoadGameInput) (session.SessionHandle, error) {
			return s.LoadGame(ctx, in.SaveID)
		}),
	def("delete_save", "DeleteSave", false,
		"Delete one of a profile's saves, only while its savedAt is still the one given.",
		func(ctx context.Context, s *session.Store, in DeleteSaveInput) (DeleteSaveOutput, error) {
			if err := s.DeleteSave(ctx, in.ProfileID, in.SaveID, in.ExpectedSavedAt); err != nil {
				return DeleteSaveOutput{}, err
			}
			return DeleteSaveOutput{Deleted: in.SaveID}, nil
		}),
	def("branch_session", "BranchSession", false,
		"Start a new session from an earlier point of this one: the first atActionCount actions replayed. The source is left untouched.",
		func(ctx context.Context, s *session.Store, in BranchSessionInput) (session.SessionHandle, error) {
			return s.BranchSession(ctx, in.SessionID, in.AtActionCount)
		}),
}
