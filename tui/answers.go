package tui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"unicode"
	"unicode/utf16"
)

// question is one of a question tool's questions (AskUserQuestion's shape:
// {questions: [{question, header?, options: [{label, description?}],
// multiSelect?}]}), as the web inbox reads it.
type question struct {
	Question, Header string
	Multi            bool
	Options          []option
}

type option struct{ Label, Description string }

// questionsOf reads a call's arguments as questions; nil if they are not.
func questionsOf(args map[string]any) []question {
	raw, ok := args["questions"].([]any)
	if !ok || len(raw) == 0 {
		return nil
	}
	var qs []question
	for _, r := range raw {
		m, ok := r.(map[string]any)
		if !ok {
			return nil
		}
		text, ok := m["question"].(string)
		opts, ok2 := m["options"].([]any)
		if !ok || !ok2 {
			return nil
		}
		q := question{Question: text}
		q.Header, _ = m["header"].(string)
		q.Multi, _ = m["multiSelect"].(bool)
		for _, o := range opts {
			om, _ := o.(map[string]any)
			label, ok := om["label"].(string)
			if !ok {
				continue
			}
			desc, _ := om["description"].(string)
			q.Options = append(q.Options, option{Label: label, Description: desc})
		}
		qs = append(qs, q)
	}
	return qs
}

// asking is the person's answers in progress to one approval's questions.
type asking struct {
	id     string
	qs     []question
	cur    int      // the question the keys answer
	hi     int      // the highlighted option of the current question
	picked [][]bool // per question, per option
	other  []string // per question, a typed answer besides the options
}

func newAsking(id string, qs []question) *asking {
	p := make([][]bool, len(qs))
	for i, q := range qs {
		p[i] = make([]bool, len(q.Options))
	}
	return &asking{id: id, qs: qs, picked: p, other: make([]string, len(qs))}
}

// pick chooses option i of the current question: the only one for a
// single choice, toggled for a multiple choice.
func (s *asking) pick(i int) {
	q := s.qs[s.cur]
	if i < 0 || i >= len(q.Options) {
		return
	}
	s.hi = i
	if q.Multi {
		s.picked[s.cur][i] = !s.picked[s.cur][i]
		return
	}
	for j := range s.picked[s.cur] {
		s.picked[s.cur][j] = j == i
	}
	s.other[s.cur] = "" // one answer to a single choice
}

// labels are the chosen labels of question qi, joined as the web joins them.
func (s *asking) labels(qi int) string {
	var ls []string
	for j, on := range s.picked[qi] {
		if on {
			ls = append(ls, s.qs[qi].Options[j].Label)
		}
	}
	if s.other[qi] != "" {
		ls = append(ls, s.other[qi])
	}
	return strings.Join(ls, ", ")
}

// unanswered is the first question with nothing chosen, or -1.
func (s *asking) unanswered() int {
	for i := range s.qs {
		if s.labels(i) == "" {
			return i
		}
	}
	return -1
}

// answer is the approval's Answer: {"answers": {question: labels}}, the
// shape the web inbox sends.
func (s *asking) answer() (json.RawMessage, error) {
	if i := s.unanswered(); i >= 0 {
		return nil, fmt.Errorf("answer the question %q first", s.qs[i].Question)
	}
	ans := map[string]string{}
	for i, q := range s.qs {
		ans[q.Question] = s.labels(i)
	}
	return json.Marshal(map[string]any{"answers": ans})
}

// modifications compares edited arguments (JSON text) with the call's:
// the changed and added keys, as the broker merges them over the call's.
// Like the web inbox it refuses text that is not a JSON object, a removed
// key (a merge cannot remove one) and no change.
func modifications(args map[string]any, text string) (json.RawMessage, error) {
	var edited map[string]any
	if err := json.Unmarshal([]byte(text), &edited); err != nil {
		return nil, fmt.Errorf("the arguments are not a JSON object: %w", err)
	}
	if edited == nil {
		return nil, errors.New("the arguments must be a JSON object")
	}
	var gone []string
	for k := range args {
		if _, ok := edited[k]; !ok {
			gone = append(gone, k)
		}
	}
	if len(gone) > 0 {
		sort.Strings(gone)
		return nil, fmt.Errorf("an argument cannot be removed, only changed: %s", strings.Join(gone, ", "))
	}
	// Compare as JSON values: the call's args may hold numbers as
	// float64 or json.Number depending on how they were decoded.
	orig := map[string]any{}
	if b, err := json.Marshal(args); err == nil {
		_ = json.Unmarshal(b, &orig)
	}
	mods := map[string]any{}
	for k, v := range edited {
		if !reflect.DeepEqual(v, orig[k]) {
			mods[k] = v
		}
	}
	if len(mods) == 0 {
		return nil, errors.New("nothing was changed: approve the call as it is instead (y)")
	}
	return json.Marshal(mods)
}

// editableJSON is args as one line of JSON for the editor: & < > as they
// are, and every control, format (direction override, zero-width) or
// otherwise unprintable character as a \u escape, so the text in the
// input cannot drive the terminal or hide what it says. Such characters
// only occur inside JSON strings, where the escape means the same.
func editableJSON(args map[string]any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(args); err != nil {
		return "", err
	}
	var out strings.Builder
	for _, r := range strings.TrimSuffix(buf.String(), "\n") {
		if unicode.IsPrint(r) || r == ' ' {
			out.WriteRune(r)
			continue
		}
		if r > 0xFFFF {
			a, b := utf16.EncodeRune(r)
			fmt.Fprintf(&out, "\\u%04x\\u%04x", a, b)
			continue
		}
		fmt.Fprintf(&out, "\\u%04x", r)
	}
	return out.String(), nil
}
