package shell

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/idna"
)

// HostKind is what a URL's host reaches, as far as its spelling says.
type HostKind uint8

// Host kinds.
const (
	HostRemote   HostKind = iota // another machine, or a name DNS decides
	HostLoopback                 // this machine: localhost, 127/8, ::1, 0.0.0.0
	HostMetadata                 // a cloud instance's metadata service
)

// metadataNames are the metadata services' host names.
// "metadata" is GCE's short name, "instance-data" AWS's (both resolve
// inside the cloud's network).
var metadataNames = [...]string{"metadata", "instance-data", "instance-data.ec2.internal", "metadata.google.internal", "metadata.goog", "metadata.azure.com", "metadata.tencentyun.com", "metadata.platformequinix.com"}

// metadataAddrs are the metadata services' addresses outside 169.254/16
// (which is link-local as a whole and counts entirely).
var metadataAddrs = [...]string{"100.100.100.200", "fd00:ec2::254", "fd00:ec2::23"}

// URLHost returns a URL's host ("http://user@[::1]:80/x" → "::1"),
// lower-cased, without brackets, port or a trailing dot. It reads the
// URL as a WHATWG URL parser does (what a fetch tool and most HTTP
// libraries run): tabs and line breaks anywhere are dropped, the scheme
// is any case, a special scheme's slashes may be any number of '/' or
// '\' (`http:\\h\`, "http:/h"), and a host's percent-escapes are
// decoded ("%31%36%39.254.169.254") and its compatibility forms mapped
// (UTS 46, "ｌｏｃａｌｈｏｓｔ"). A word without a scheme is read as
// curl reads it: a host, then a path.
func URLHost(u string) string {
	u = URLText(u)
	if i := strings.IndexByte(u, ':'); i > 0 && specialScheme(u[:i]) {
		u = strings.TrimLeft(u[i+1:], "/\\")
	} else if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "/?#\\"); i >= 0 {
		u = u[:i]
	}
	if i := strings.LastIndexByte(u, '@'); i >= 0 {
		u = u[i+1:]
	}
	if strings.IndexByte(u, '%') >= 0 && !strings.HasPrefix(u, "[") {
		u = PercentDecode(u)
	}
	if strings.HasPrefix(u, "[") {
		u, _, _ = strings.Cut(u[1:], "]")
		if i := strings.IndexByte(u, '%'); i >= 0 {
			u = u[:i] // a zone
		}
	} else if i := strings.LastIndexByte(u, ':'); i >= 0 {
		u = u[:i]
	}
	if !isASCII(u) {
		// UTS 46 maps full-width digits, ideographic full stops and other
		// compatibility forms to ASCII before the host is read as an
		// address: "１６９。２５４。１６９。２５４" is 169.254.169.254.
		if h, err := idna.Lookup.ToASCII(u); err == nil {
			u = h
		}
	}
	return strings.TrimSuffix(strings.ToLower(u), ".")
}

// URLText is the text of u a WHATWG URL parser reads: tabs and line
// breaks anywhere dropped ("fi\tle:///x" is a file URL), control
// characters and spaces at either end trimmed. It allocates only for a
// text that has any.
func URLText(u string) string {
	if strings.ContainsAny(u, "\t\n\r") {
		u = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, u)
	}
	return strings.TrimFunc(u, func(r rune) bool { return r <= ' ' || unicode.IsSpace(r) })
}

// PercentDecode decodes a URL's %XX escapes ("%2e" → "."); a '%' not
// followed by two hexadecimal digits stays as it is (lenientUnescape:
// net/url is not linked, its start-up is a cost every hook pays). It
// allocates only for a text with a '%'.
func PercentDecode(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	return lenientUnescape(s)
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// specialScheme reports whether a URL scheme is one a WHATWG parser
// gives a host however its slashes are written.
func specialScheme(s string) bool {
	for _, w := range [...]string{"http", "https", "ws", "wss", "ftp"} {
		if strings.EqualFold(s, w) {
			return true
		}
	}
	return false
}

// ClassifyHost says what a host reaches. Numeric hosts are read in every
// spelling a URL library accepts: dotted quads, one 32-bit number
// ("2852039166"), hexadecimal and octal parts ("0xa9.0376.169.254"),
// short forms ("127.1") and IPv4 inside IPv6 ("::ffff:169.254.169.254").
func ClassifyHost(h string) HostKind {
	if h == "" {
		return HostRemote
	}
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return HostLoopback
	}
	for _, n := range metadataNames {
		if h == n {
			return HostMetadata
		}
	}
	addr, ok := parseHostAddr(h)
	if !ok {
		return HostRemote
	}
	addr = addr.Unmap()
	for _, m := range metadataAddrs {
		if addr == netip.MustParseAddr(m) {
			return HostMetadata
		}
	}
	switch {
	case addr.Is4() && addr.As4()[0] == 169 && addr.As4()[1] == 254:
		return HostMetadata
	case addr.IsLoopback(), addr.IsUnspecified():
		return HostLoopback
	}
	return HostRemote
}

// parseHostAddr reads a numeric host: IPv6, or IPv4 in inet_aton's forms
// (one to four parts, each decimal, 0x hexadecimal or 0 octal).
func parseHostAddr(h string) (netip.Addr, bool) {
	if strings.IndexByte(h, ':') >= 0 {
		a, err := netip.ParseAddr(h)
		return a, err == nil
	}
	if h[0] < '0' || h[0] > '9' {
		return netip.Addr{}, false // a name
	}
	var nums [4]uint64
	n := 0
	for rest := h; ; n++ {
		if n == len(nums) {
			return netip.Addr{}, false
		}
		p, tail, more := strings.Cut(rest, ".")
		base := 10
		switch {
		case strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X"):
			p, base = p[2:], 16
		case len(p) > 1 && p[0] == '0':
			p, base = p[1:], 8
		}
		v, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		nums[n] = v
		if !more {
			break
		}
		rest = tail
	}
	// The last part fills the bytes the earlier parts leave.
	var v uint64
	for i := 0; i < n; i++ {
		if nums[i] > 0xff {
			return netip.Addr{}, false
		}
		v |= nums[i] << (8 * (3 - i))
	}
	if nums[n] >= 1<<(8*(4-n)) {
		return netip.Addr{}, false
	}
	v |= nums[n]
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}
