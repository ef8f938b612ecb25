#pragma once

#include <QString>

#include <optional>

namespace posenc {

// A problem with one parameter or figure option, as a value: which one (its key, the
// command-line flag without its dashes, also the session key), what was wrong with the
// allowed range or values, and what was given. Core and render never word the key: the
// command line names it as a flag, the window by its control's label (docs/ARCHITECTURE.md,
// "Errors are values").
struct ParamError
{
    QString key;
    // The allowed range or values, completing "must be ...": "an integer in [1, 1048576]".
    // Empty when the problem is not about a range.
    QString allowed;
    // What was wrong when "must be <allowed>" does not say it: "the matrix has 768 columns; the
    // model needs 512". Empty for a value outside its range.
    QString problem;
    // The value given, as it is shown after "got": a number as is, a text quoted (quoted()).
    std::optional<QString> given;

    // "must be an integer in [1, 1048576]; got 'abc'": the problem without the key, which each
    // front end puts after its own name for it.
    QString sentence() const;

    // A value the user typed, quoted and shortened, so that a pasted megabyte is not echoed whole,
    // and on one line: its control characters and line separators shown as escapes (\n, \x1b).
    static QString quoted(const QString &text);

    friend bool operator==(const ParamError &, const ParamError &) = default;
};

} // namespace posenc
