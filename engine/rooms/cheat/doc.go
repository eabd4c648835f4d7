// Package cheat is Storyloom's reference table game on the rooms seam:
// Cheat (also called "I Doubt It"), a bluffing card game for 2 to 8 seats.
//
// The 52 cards are dealt out. Seats play in turn, each putting 1 to 4
// cards face down and claiming they are all of the current rank (Aces,
// then Twos, … Kings, then Aces again). Every other seat may then call
// "Cheat!" or let the play stand. A call turns the played cards face up:
// if any is not of the claimed rank the player who played picks up the
// whole pile, otherwise the caller does. The first seat to empty its hand
// with a play that stands (or survives a call) wins. docs/rooms.md has the
// rules in full.
//
// Hidden information is the point of the game: a hand is seen only by its
// holder, the pile's faces by nobody, and only the cards of a call are ever
// turned up. The decision clock's default is a pass in the challenge window
// and a single card (a true one if the hand has one) on a play. Two AI
// kinds play: "fox" and "random".
package cheat
