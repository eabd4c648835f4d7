package freeport

// Request bodies the package's own tests and fuzz seeds send; the
// conformance suite keeps its own in package freeporttest, where {{x}} and
// friends are expanded. Here they are not, so those bodies are malformed
// seeds.
const (
	respondX = `{"protocolVersion":2,"action":"respondToExchange","commandId":"r-1","exchangeId":"{{x}}","exchangeVersion":{{x.ver}},"termsHash":"{{x.hash}}","decision":"approve"}`
	cancelX  = `{"protocolVersion":2,"action":"cancelExchange","commandId":"k-1","exchangeId":"{{x}}","exchangeVersion":{{x.ver}}}`
	counterX = `{"protocolVersion":2,"action":"counterExchange","commandId":"h-1","exchangeId":"{{x}}","exchangeVersion":{{x.ver}},"termsHash":"{{x.hash}}","offered":[{"assetId":"wood","quantity":3}],"requested":[{"assetId":"credits","quantity":9}]}`
	getX     = `{"protocolVersion":2,"action":"getExchange","exchangeId":"{{x}}"}`
	inv      = `{"protocolVersion":2,"action":"readInventory"}`
	standing = `{"protocolVersion":2,"action":"readStanding"}`
	enrol    = `{"protocolVersion":2,"action":"enroll","commandId":"enroll-01"}`
)
