package embed

// IsStopword reports whether a lowercase word (as Words returns it) is an
// English stopword: articles, pronouns, auxiliary and modal verbs,
// prepositions, conjunctions, question words, negations and the common
// contractions, with and without the apostrophe ("i'm", "im"). The list is
// compact on purpose: content words such as "last", "week", "first" or
// "home" are not stopwords. IsStopword is safe for concurrent use.
func IsStopword(word string) bool {
	switch word {
	case
		// articles, determiners, quantifiers
		"a", "an", "the", "this", "that", "these", "those", "some", "any",
		"each", "every", "all", "both", "either", "neither", "such", "own",
		"same", "other", "another", "more", "most", "much", "many", "few",
		// pronouns
		"i", "me", "my", "mine", "myself", "you", "your", "yours", "yourself",
		"yourselves", "he", "him", "his", "himself", "she", "her", "hers",
		"herself", "it", "its", "itself", "we", "us", "our", "ours",
		"ourselves", "they", "them", "their", "theirs", "themselves",
		"one", "ones", "something", "anything", "someone", "anyone",
		// auxiliaries and modals
		"am", "is", "are", "was", "were", "be", "been", "being", "have",
		"has", "had", "having", "do", "does", "did", "doing", "done",
		"will", "would", "shall", "should", "can", "could", "might", // not "may": the month
		"must", "ought",
		// contractions (with and without the apostrophe where unambiguous)
		"i'm", "im", "i've", "ive", "i'll", "i'd", "you're", "youre",
		"you've", "youve", "you'll", "youll", "you'd", "he's", "he'll",
		"he'd", "she's", "she'll", "she'd", "it's", "it'll", "we're",
		"we've", "weve", "we'll", "we'd", "they're", "theyre", "they've",
		"theyve", "they'll", "theyll", "they'd", "that's", "thats", "there's",
		"theres", "here's", "what's", "whats", "who's", "where's", "when's",
		"why's", "how's", "let's", "lets", "isn't", "isnt", "aren't", "arent",
		"wasn't", "wasnt", "weren't", "werent", "hasn't", "hasnt", "haven't",
		"havent", "hadn't", "hadnt", "don't", "dont", "doesn't", "doesnt",
		"didn't", "didnt", "won't", "wouldn't", "wouldnt", "shan't",
		"shouldn't", "shouldnt", "can't", "cant", "cannot", "couldn't",
		"couldnt", "mustn't", "mightn't", "needn't", "don", "t", "s", "ll",
		"ve", "re", "d", "m",
		// prepositions
		"about", "above", "across", "after", "against", "along", "among",
		"around", "at", "before", "behind", "below", "beneath", "beside",
		"between", "beyond", "by", "down", "during", "except", "for", "from",
		"in", "inside", "into", "near", "of", "off", "on", "onto", "out",
		"outside", "over", "since", "through", "throughout", "till", "to",
		"toward", "towards", "under", "until", "up", "upon", "via", "with",
		"within", "without",
		// conjunctions and adverbs of little content
		"and", "or", "nor", "but", "if", "then", "else", "than", "so",
		"because", "as", "while", "although", "though", "whether", "also",
		"just", "only", "very", "too", "again", "further", "once", "here",
		"there", "now", "still", "even", "ever", "yet",
		// question words
		"what", "which", "who", "whom", "whose", "when", "where", "why", "how",
		// negation
		"no", "not":
		return true
	}
	return false
}
