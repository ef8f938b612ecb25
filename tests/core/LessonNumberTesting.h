#pragma once

// What tst_lessonnumbers and tst_familylessonnumbers share: parameters from settings, a number's
// value, the PE row as the mathematics defines it, and a closeness test.
#include "core/LessonNumbers.h"
#include "core/ParamText.h"
#include "core/Params.h"

#include "Reference.h"

#include <QList>
#include <QString>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace LessonNumberTesting {

using namespace posenc;

inline double valueOf(const QString &key, const Params &params)
{
    const auto number = LessonNumbers::number(key, params);
    if (!number || !number->value)
        return std::nan("");
    return *number->value;
}

inline Params make(std::int64_t d, std::int64_t L, const QList<std::pair<QString, QString>> &settings = {})
{
    Params p;
    p.dModel = d;
    p.maxLen = L;
    for (const auto &[key, text] : settings)
        ParamText::set(p, key, text);
    return p;
}

// The PE table of `columns` columns as the mathematics defines it, one row.
inline std::vector<double> peRow(std::int64_t position, std::int64_t columns, double base, Layout layout)
{
    std::vector<double> row(static_cast<std::size_t>(columns));
    for (std::int64_t j = 0; j < columns; ++j)
        row[static_cast<std::size_t>(j)] = reference::exactValue(position, j, columns, base, layout);
    return row;
}

inline bool close(double a, double b, double relative, double absolute = 0.0)
{
    return std::abs(a - b) <= std::max(absolute, relative * std::max(std::abs(a), std::abs(b)));
}

} // namespace LessonNumberTesting
