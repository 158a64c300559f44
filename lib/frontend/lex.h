/* lex.h: the tokenizer for the Python subset that Triton kernels are written in.
 *
 * lex_tokenize() turns a whole file into an array of tokens in one go, the way Python's
 * tokenizer sees it: NEWLINE ends a logical line, INDENT and DEDENT bracket blocks, and
 * newlines inside (), [] and {} or after a backslash are not tokens. The lexer reports
 * nothing itself: at the first malformed input it stops with a LEX_ERROR token that holds
 * the message, and the parser reports it when it gets there, so that the first error in
 * the file is the one shown whether the lexer or the parser found it.
 *
 * f-strings are tokenized the way Python 3.12 does it: FSTRING_START, then literal pieces
 * (FSTRING_MIDDLE) and replacement fields, each an LBRACE, the ordinary tokens of the
 * expression, an optional EXCLAIM NAME conversion, an optional COLON and format spec (more
 * pieces and nested fields), and an RBRACE; FSTRING_END closes it. Fields may hold strings
 * with the same quote as the f-string. */
#ifndef TILECC_FRONTEND_LEX_H
#define TILECC_FRONTEND_LEX_H

#include <stdbool.h>
#include <stdint.h>

#include "support/arena.h"
#include "support/diag.h"
#include "support/intern.h"

/* Keywords: enum suffix, spelling. Soft keywords (match, case, type, _) are names. */
#define LEX_KEYWORDS(X)                                                                            \
	X(FALSE, "False") X(NONE, "None") X(TRUE, "True") X(AND, "and") X(AS, "as")               \
	X(ASSERT, "assert") X(ASYNC, "async") X(AWAIT, "await") X(BREAK, "break")                 \
	X(CLASS, "class") X(CONTINUE, "continue") X(DEF, "def") X(DEL, "del") X(ELIF, "elif")     \
	X(ELSE, "else") X(EXCEPT, "except") X(FINALLY, "finally") X(FOR, "for") X(FROM, "from")   \
	X(GLOBAL, "global") X(IF, "if") X(IMPORT, "import") X(IN, "in") X(IS, "is")               \
	X(LAMBDA, "lambda") X(NONLOCAL, "nonlocal") X(NOT, "not") X(OR, "or") X(PASS, "pass")     \
	X(RAISE, "raise") X(RETURN, "return") X(TRY, "try") X(WHILE, "while") X(WITH, "with")     \
	X(YIELD, "yield")

/* Operators and delimiters: enum suffix, spelling. Longest match wins when lexing. */
#define LEX_PUNCTS(X)                                                                              \
	X(LPAREN, "(") X(RPAREN, ")") X(LBRACKET, "[") X(RBRACKET, "]") X(LBRACE, "{")            \
	X(RBRACE, "}") X(COMMA, ",") X(COLON, ":") X(SEMI, ";") X(DOT, ".") X(ELLIPSIS, "...")    \
	X(ASSIGN, "=") X(ARROW, "->") X(WALRUS, ":=") X(AT, "@")                                  \
	X(PLUS, "+") X(MINUS, "-") X(STAR, "*") X(SLASH, "/") X(DSLASH, "//") X(PERCENT, "%")     \
	X(DSTAR, "**") X(AMP, "&") X(PIPE, "|") X(CARET, "^") X(TILDE, "~") X(LSHIFT, "<<")       \
	X(RSHIFT, ">>")                                                                            \
	X(EQ, "==") X(NE, "!=") X(LT, "<") X(LE, "<=") X(GT, ">") X(GE, ">=")                     \
	X(PLUSEQ, "+=") X(MINUSEQ, "-=") X(STAREQ, "*=") X(SLASHEQ, "/=") X(DSLASHEQ, "//=")      \
	X(PERCENTEQ, "%=") X(DSTAREQ, "**=") X(ATEQ, "@=") X(AMPEQ, "&=") X(PIPEEQ, "|=")         \
	X(CARETEQ, "^=") X(LSHIFTEQ, "<<=") X(RSHIFTEQ, ">>=") X(EXCLAIM, "!")

typedef enum lex_kind {
	LEX_EOF,
	LEX_ERROR,   /* str: the message; always the last token */
	LEX_NEWLINE, /* end of a logical line */
	LEX_INDENT,
	LEX_DEDENT,
	LEX_NAME,    /* name */
	LEX_INT,     /* ival; int_big when the literal does not fit in int64 */
	LEX_FLOAT,   /* fval */
	LEX_STR,     /* str; is_bytes for b"..." */
	LEX_IMAG,    /* fval: the imaginary literal 2.5j */
	LEX_FSTRING_START,  /* f" (the prefix and the quote) */
	LEX_FSTRING_MIDDLE, /* str: a literal piece of an f-string, escapes resolved */
	LEX_FSTRING_END,    /* the closing quote */
#define X(id, s) LEX_KW_##id,
	LEX_KEYWORDS(X)
#undef X
#define X(id, s) LEX_##id,
	LEX_PUNCTS(X)
#undef X
	LEX_NKINDS
} lex_kind;

typedef struct lex_token {
	lex_kind kind;
	srcloc loc;                 /* start; len: its width on its first line */
	uint32_t end_line, end_col; /* just past its last character */
	bool is_bytes;              /* LEX_STR: a bytes literal */
	bool int_big;               /* LEX_INT: the value does not fit in int64 */
	union {
		const char *name; /* interned */
		int64_t ival;
		double fval;
		struct {
			const char *s; /* escapes resolved, NUL-terminated, in the arena */
			uint32_t len;
		} str;
	};
} lex_token;

/* Tokenizes src[0..len) of file `file`. Returns an arena array of *ntokens tokens whose
 * last is LEX_EOF or LEX_ERROR; NULL only when out of memory. Names are interned in names. */
lex_token *lex_tokenize(arena *a, strtab *names, uint32_t file, const char *src, uint32_t len,
			uint32_t *ntokens);

/* How a kind reads in a message: "'('", "'def'", "name", "end of line". */
const char *lex_kind_str(lex_kind k);

#endif
