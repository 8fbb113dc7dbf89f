package embed

import "strings"

// LexicalTerms returns the terms the lexical (BM25) index matches on: Terms,
// with irregular verb forms and plurals first mapped to their base word,
// chat clippings and British spellings to the full American word
// (variants), and the suffixes "-ship" and "-hood" stripped (derivations), so
// that "When did Ana go to Porto?" meets "I went to Porto", and "buy" meets
// "bought" ("went" gives "go", "bought" "buy", "children" "child"). Porter
// stemming only strips regular suffixes, and people ask about past events
// in the base form ("did she go", "did he buy") that the memory tells in the
// past tense. The built-in embedder keeps Terms: its vectors are stored,
// and changing its features would need a new model id and a re-embed of
// every store. LexicalTerms is safe for concurrent use.
//
// Measured on LoCoMo (recall@5 dev / held-out, recall@1 all): without
// 0.713 / 0.695, 0.403; with 0.722 / 0.709, 0.420. Leaving out the forms
// that are also other words ("left", "felt", "found", "saw", "people"...)
// gave 0.719 on dev, so they stay.
func LexicalTerms(text string) []string {
	return terms(text, baseWord)
}

// baseWord is the word LexicalTerms stems in place of w.
func baseWord(w string) string {
	if b, ok := irregular[w]; ok {
		return b
	}
	if b, ok := variants[w]; ok {
		return b
	}
	return stripDerivation(w)
}

// variants maps the clipped words of chat ("fam", "pic", "tourney", "bday")
// and British spellings Porter does not fold ("organise", "colour") to one
// full word, so "my fam" meets "family" and "the tourney" "tournament".
// Only clippings with one reading are listed ("doc", "vet" and "ref" are
// also document, veteran and reference), and no synonyms: mapping "kid" to
// "child", "movie" to "film" or "buddy" to "friend" measured worse.
// Measured on LoCoMo (recall@5 dev / held-out, dev temporal in brackets):
// without 0.723 / 0.709 (0.852); clippings 0.728 / 0.712 (0.865);
// spellings alone 0.723 / 0.710 (0.852); both 0.728 / 0.713 (0.865);
// the synonyms above 0.722 / 0.711 (0.846).
var variants = map[string]string{
	// clippings
	"fam": "family", "pic": "picture", "pics": "picture", "fest": "festival", "fests": "festival",
	"tourney": "tournament", "tourneys": "tournament", "bday": "birthday", "bdays": "birthday",
	"mom": "mother", "moms": "mother", "mum": "mother", "mums": "mother", "dad": "father", "dads": "father",
	"grandma": "grandmother", "granny": "grandmother", "grandpa": "grandfather",
	"bro": "brother", "sis": "sister", "vacay": "vacation", "convo": "conversation", "convos": "conversation",
	"fave": "favorite", "fav": "favorite", "uni": "university", "info": "information", "biz": "business",
	"prof": "professor", "profs": "professor", "champ": "champion", "champs": "champion", "rehab": "rehabilitation",
	// British spellings
	"favourite": "favorite", "favourites": "favorite", "colour": "color", "colours": "color", "coloured": "color",
	"neighbour": "neighbor", "neighbours": "neighbor", "neighbourhood": "neighbor", "theatre": "theater",
	"theatres": "theater", "centre": "center", "centres": "center", "organise": "organize",
	"organised": "organize", "organising": "organize", "realise": "realize", "realised": "realize",
	"apologise": "apologize", "practise": "practice", "programme": "program", "programmes": "program",
	"honour": "honor", "humour": "humor", "flavour": "flavor", "flavours": "flavor", "labour": "labor",
	"behaviour": "behavior", "grey": "gray",
}

// derivations are the suffixes that make an abstract noun of a noun, which
// Porter stemming keeps: "mentorship", "internship", "friendships",
// "childhood", "neighborhood". Stripping them lets "When did Jon receive
// mentorship?" meet "I got mentored by this amazing business dude"
// (LoCoMo recall@5 dev 0.721 -> 0.723, its temporal questions 0.843 ->
// 0.852; held-out unchanged at 0.709).
var derivations = []string{"ships", "ship", "hoods", "hood"}

// stripDerivation removes a derivation suffix when at least four letters
// remain ("worship" and "ship" stay whole).
func stripDerivation(w string) string {
	for _, suf := range derivations {
		if base, ok := strings.CutSuffix(w, suf); ok && len(base) >= 4 {
			return base
		}
	}
	return w
}

// irregular maps irregular English verb forms and plurals to their base
// word. It is our own list rather than a lemmatizer library: the forms are a
// closed class of a couple of hundred words, Porter stemming handles every
// regular one, and the Go lemmatizers embed dictionaries of megabytes (the
// one we looked at, aaaton/golem, is not on the module proxy either).
// Forms that are stopwords ("was", "did", "had") never reach it.
var irregular = map[string]string{
	"went": "go", "gone": "go", "goes": "go",
	"bought": "buy", "got": "get", "gotten": "get", "took": "take", "taken": "take",
	"made": "make", "saw": "see", "seen": "see", "met": "meet", "ran": "run",
	"began": "begin", "begun": "begin", "wrote": "write", "written": "write",
	"gave": "give", "given": "give", "found": "find", "kept": "keep",
	"lost": "lose", "brought": "bring", "thought": "think", "taught": "teach",
	"caught": "catch", "sold": "sell", "told": "tell", "won": "win",
	"flew": "fly", "flown": "fly", "drove": "drive", "driven": "drive",
	"ate": "eat", "eaten": "eat", "spent": "spend", "built": "build",
	"sent": "send", "held": "hold", "paid": "pay", "heard": "hear",
	"sang": "sing", "sung": "sing", "swam": "swim", "swum": "swim",
	"rode": "ride", "ridden": "ride", "chose": "choose", "chosen": "choose",
	"broke": "break", "broken": "break", "drew": "draw", "drawn": "draw",
	"grew": "grow", "grown": "grow", "knew": "know", "known": "know",
	"threw": "throw", "thrown": "throw", "wore": "wear", "worn": "wear",
	"woke": "wake", "woken": "wake", "stole": "steal", "stolen": "steal",
	"fought": "fight", "slept": "sleep", "stood": "stand", "understood": "understand",
	"became": "become", "came": "come", "forgot": "forget", "forgotten": "forget",
	"forgave": "forgive", "forgiven": "forgive", "felt": "feel", "left": "leave",
	"said": "say", "fell": "fall", "fallen": "fall", "hid": "hide", "hidden": "hide",
	"sat": "sit", "spoke": "speak", "spoken": "speak", "shook": "shake", "shaken": "shake",
	"sought": "seek", "fed": "feed", "led": "lead", "lent": "lend",
	"meant": "mean", "dealt": "deal", "dreamt": "dream", "learnt": "learn", "burnt": "burn",
	"bit": "bite", "blew": "blow", "blown": "blow", "dug": "dig", "froze": "freeze", "frozen": "freeze",
	"hung": "hang", "rang": "ring", "rung": "ring", "rose": "rise", "risen": "rise",
	"shot": "shoot", "slid": "slide", "spun": "spin", "stuck": "stick",
	"struck": "strike", "swore": "swear", "sworn": "swear", "tore": "tear", "torn": "tear",
	"wept": "weep", "wound": "wind", "withdrew": "withdraw", "overcame": "overcome",
	"undertook": "undertake", "upheld": "uphold", "mistook": "mistake", "mistaken": "mistake",
	"children": "child", "men": "man", "women": "woman", "people": "person",
	"feet": "foot", "teeth": "tooth", "mice": "mouse", "geese": "goose",
}
