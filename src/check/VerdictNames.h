#pragma once

#include "check/TableMatch.h"

#include <QString>
#include <QStringList>

// A verdict and the names it carries (docs/ARCHITECTURE.md, Checking a table, "What a verdict
// names"): a mistake's are its mistakes; any other verdict's are a guess at what the table may hold,
// said as one. The text and --json of every check say them so.
namespace posenc::CheckWords {

// "mistake (position-offset)"; "unknown (a guess: position-offset)"; "correct" without names.
QString verdictWithNames(CheckVerdict verdict, const QStringList &mistakes);
// --json's two members, "\"mistakes\": [...], \"guessed_mistakes\": [...]": the names in `mistakes`
// on a mistake verdict alone, in `guessed_mistakes` on any other.
QString mistakesJson(CheckVerdict verdict, const QStringList &mistakes);
// The same where parts of the result guessed other names (one head of many): `guessed` always in
// `guessed_mistakes`, less those `mistakes` holds on a mistake verdict.
QString mistakesJson(CheckVerdict verdict, const QStringList &mistakes, const QStringList &guessed);

} // namespace posenc::CheckWords
