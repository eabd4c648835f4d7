package freeport

// AdminLimit bounds each list of the Admin View: the most recent entries.
const AdminLimit = 500

type adminView struct {
	GameID        string                   `json:"gameId"`
	Title         string                   `json:"title"`
	GeneratedAt   string                   `json:"generatedAt"`
	StateVersion  int64                    `json:"stateVersion"`
	Prices        []priceView              `json:"prices"`
	System        map[string][]holdingView `json:"system"`
	PlayerCount   int                      `json:"playerCount"`
	Players       []adminPlayer            `json:"players"`
	Exchanges     []adminExchange          `json:"exchanges"`
	ExchangeCount int                      `json:"exchangeCount"`
	Ledger        []adminEntry             `json:"ledger"`
	LedgerCount   int                      `json:"ledgerCount"`
	Commands      []adminCommand           `json:"commands"`
	CommandCount  int                      `json:"commandCount"`
}

type adminPlayer struct {
	PlayerID    string        `json:"playerId"`
	PlayerName  string        `json:"playerName"`
	TradingName *string       `json:"tradingName"`
	EnrolledAt  string        `json:"enrolledAt"`
	Holdings    []holdingView `json:"holdings"`
}

type adminExchange struct {
	exchangeView
	RuleAppliedProposer     bool    `json:"ruleAppliedProposer"`
	RuleAppliedCounterparty bool    `json:"ruleAppliedCounterparty"`
	RuleNoteProposer        *string `json:"ruleNoteProposer"`
	RuleNoteCounterparty    *string `json:"ruleNoteCounterparty"`
}

type adminEntry struct {
	Sequence   int64   `json:"sequence"`
	At         string  `json:"at"`
	Reason     string  `json:"reason"`
	From       string  `json:"from"`
	To         string  `json:"to"`
	AssetID    string  `json:"assetId"`
	Quantity   int64   `json:"quantity"`
	ExchangeID *string `json:"exchangeId"`
	TransferID *string `json:"transferId"`
	RuleID     *string `json:"ruleId"`
	RuleNote   *string `json:"ruleNote"`
}

type adminCommand struct {
	PlayerID     string `json:"playerId"`
	Action       string `json:"action"`
	At           string `json:"at"`
	StateVersion int64  `json:"stateVersion"`
}

// Admin returns the operator's projection of s at now as canonical JSON:
// every Player's holdings, the most recent AdminLimit Exchanges (each with
// at most the game's Round window of Rounds), Ledger entries with their
// game-wide sequence and mechanical reasons (game_rule_grant,
// game_rule_withdrawal) and Command summaries. It is unauthenticated by
// design and so omits every Owner ID and every caller-supplied Command ID.
func (s *State) Admin(now int64) []byte {
	g := s.game
	v := adminView{GameID: g.id, Title: g.title, GeneratedAt: FormatTime(now), StateVersion: s.version,
		System: map[string][]holdingView{}, PlayerCount: s.players.Len(), Players: []adminPlayer{},
		Exchanges: []adminExchange{}, ExchangeCount: s.exchanges.Len(), Ledger: []adminEntry{},
		LedgerCount: s.ledger.Len(), Commands: []adminCommand{}, CommandCount: s.commandLog.Len()}
	v.Prices = s.standing(now).Prices
	for k, name := range []string{Treasury, Issuance} {
		hv := make([]holdingView, len(g.assets))
		for a, as := range g.assets {
			hv[a] = holdingView{AssetID: as.ID, Quantity: s.system[k][a], Available: s.system[k][a]}
		}
		v.System[name] = hv
	}
	names := s.playerNames()
	for i := 0; i < s.players.Len(); i++ {
		p := s.player(i)
		ap := adminPlayer{PlayerID: p.id, PlayerName: names[i], EnrolledAt: FormatTime(p.enrolledAt), Holdings: s.holdingsView(i)}
		if p.tradingName != "" {
			ap.TradingName = ptr(p.tradingName)
		}
		v.Players = append(v.Players, ap)
	}
	for i := max(0, s.exchanges.Len()-AdminLimit); i < s.exchanges.Len(); i++ {
		x := s.exchange(i)
		ev := s.exchangeView(x, x.proposer, g.roundWindow, 0)
		ev.RuleApplied, ev.RuleNote = false, nil
		v.Exchanges = append(v.Exchanges, adminExchange{exchangeView: ev,
			RuleAppliedProposer: x.ruleApplied[0], RuleAppliedCounterparty: x.ruleApplied[1],
			RuleNoteProposer: x.ruleNote[0], RuleNoteCounterparty: x.ruleNote[1]})
	}
	for i := max(0, s.ledger.Len()-AdminLimit); i < s.ledger.Len(); i++ {
		e := s.ledger.Get(i)
		ae := adminEntry{Sequence: e.seq, At: FormatTime(e.at), Reason: e.reason, From: s.refName(e.from),
			To: s.refName(e.to), AssetID: g.assets[e.asset].ID, Quantity: e.quantity, RuleNote: e.note}
		if e.exchangeID != "" {
			ae.ExchangeID = ptr(e.exchangeID)
		}
		if e.transferID != "" {
			ae.TransferID = ptr(e.transferID)
		}
		if e.ruleID != "" {
			ae.RuleID = ptr(e.ruleID)
		}
		v.Ledger = append(v.Ledger, ae)
	}
	for i := max(0, s.commandLog.Len()-AdminLimit); i < s.commandLog.Len(); i++ {
		c := s.commandLog.Get(i)
		v.Commands = append(v.Commands, adminCommand{PlayerID: s.player(c.player).id, Action: c.action,
			At: FormatTime(c.at), StateVersion: c.version})
	}
	return mustMarshal(v)
}
