package wire

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// DisplayProblem says what makes s unfit to be shown as a name (an
// account's, a coin's name or symbol), or "" when it is fit. Such a name
// is shown by consoles, wallets and explorers, and a coin's is written on
// chain for good: no control character (a NUL, a line break, a terminal
// escape); no bidirectional override or isolate, which shows the text
// around it in another order than it is; no U+FFFD, which a JSON decoder
// puts where the request held bytes that are not UTF-8 or a lone
// surrogate, so that the name would be
// one the client never sent; and at least one visible character, not
// only spaces, zero-width or blank-looking ones.
func DisplayProblem(s string) string {
	switch {
	case strings.ContainsFunc(s, lineBreak):
		return "must not hold control characters or line breaks"
	case strings.ContainsFunc(s, bidiControl):
		return "must not hold bidirectional override or isolate characters"
	case strings.ContainsRune(s, utf8.RuneError):
		return "must not hold U+FFFD, the mark of a character that could not be decoded (bytes that are not UTF-8, or a lone surrogate)"
	case !strings.ContainsFunc(s, visible):
		return "must not be blank: it holds no visible character"
	}
	return ""
}

// LinkProblem is DisplayProblem of a link a coin's metadata shows (its
// website, its X account, its image): one line, no direction override, no
// U+FFFD; it may be empty.
func LinkProblem(s string) string {
	if s == "" {
		return ""
	}
	return DisplayProblem(s)
}

// ProseProblem says what is wrong with a text of several lines a coin's
// metadata shows (its description), "" when nothing is: no control
// character but line breaks and tabs, and no U+FFFD (see DisplayProblem).
// Direction marks, overrides and isolates are all kept: a right-to-left
// text may need them (a link refuses the overrides: LinkProblem).
func ProseProblem(s string) string {
	switch {
	case strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t' }):
		return "must not hold control characters other than line breaks and tabs"
	case strings.ContainsRune(s, utf8.RuneError):
		return "must not hold U+FFFD, the mark of a character that could not be decoded (bytes that are not UTF-8, or a lone surrogate)"
	}
	return ""
}

// lineBreak reports whether r is a control character or one of Unicode's
// own line and paragraph separators (U+2028, U+2029).
func lineBreak(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp)
}

// bidiControl reports whether r overrides or isolates the direction of the
// text around it: U+202A-U+202E and U+2066-U+2069.
func bidiControl(r rune) bool {
	return r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069'
}

// visible reports whether r shows as something: a graphic character that
// is neither a space, a format character (zero-width ones among them) nor
// one of the letters drawn blank (the Braille blank, the Hangul fillers).
func visible(r rune) bool {
	switch r {
	case '\u2800', '\u3164', '\u115f', '\u1160', '\uffa0':
		return false
	}
	return unicode.IsGraphic(r) && !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r) &&
		!unicode.Is(unicode.Mn, r) && !unicode.Is(unicode.Me, r)
}
