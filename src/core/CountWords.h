#pragma once

#include <QString>

#include <cstdint>

// Counts and ranges of items in a sentence, their nouns in agreement (docs/ARCHITECTURE.md, "Numbers
// in text"): no sentence says "1 generated tokens" or "rows 0-0".
namespace posenc::CountWords {

// A count with its noun: "1 row", "40 rows" (`many` the plural where it is not `one` + "s": "1 cell
// lies", "3 cells lie").
inline QString counted(std::int64_t n, const QString &one, const QString &many = {})
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many.isEmpty() ? one + QLatin1Char('s') : many);
}

// A range first..last of items named by their noun, one item in the singular: "row 4", "rows 4..9"
// (`separator` between the ends: "-" where a sentence's ranges take it, "rows 5-28").
inline QString range(std::int64_t first, std::int64_t last, const QString &one, const QString &many = {},
                     const QString &separator = QStringLiteral(".."))
{
    if (first == last)
        return QStringLiteral("%1 %2").arg(one).arg(first);
    return QStringLiteral("%1 %2%3%4")
        .arg(many.isEmpty() ? one + QLatin1Char('s') : many)
        .arg(first)
        .arg(separator)
        .arg(last);
}

} // namespace posenc::CountWords
