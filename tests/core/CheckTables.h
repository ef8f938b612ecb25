#pragma once

// Tables of positions for the check's tests, each written here from float64 formulas (the paper's,
// fairseq's, the mistakes' as the issues quote them), never from the code under test; and the
// check run on one, identify, stream and conclude, as the command line runs it.
#include "check/TableCheck.h"
#include "check/TableRows.h"

#include <QStringList>
#include <QtGlobal>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <variant>
#include <vector>

namespace checktables {

using posenc::RowMatrixXf;

// Any table: cell(p, j) in float64, rounded to float32.
inline RowMatrixXf table(std::int64_t rows, std::int64_t cols,
                         const std::function<double(std::int64_t, std::int64_t)> &cell)
{
    RowMatrixXf t(rows, cols);
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t j = 0; j < cols; ++j)
            t(p, j) = float(cell(p, j));
    return t;
}

// The paper: pair i turns at b^(-2i/d); interleaved puts sin(p w_i) in column 2i and cos in 2i+1,
// split the h = ceil(d/2) sines first. `first` is the position of row 0.
inline double paper(std::int64_t p, std::int64_t j, std::int64_t d, double base, bool split, std::int64_t first = 0)
{
    const std::int64_t h = (d + 1) / 2;
    const std::int64_t pair = split ? (j < h ? j : j - h) : j / 2;
    const bool cosine = split ? j >= h : j % 2 == 1;
    const double angle = double(p + first) * std::pow(base, -2.0 * double(pair) / double(d));
    return cosine ? std::cos(angle) : std::sin(angle);
}

// fairseq's get_embedding: half_dim = d // 2, w_i = b^(-i/(half_dim - 1)), [sin | cos], row
// `padding` zeroed; a zero column after them when d is odd.
inline double fairseq(std::int64_t p, std::int64_t j, std::int64_t d, double base, std::int64_t padding = -1,
                      std::int64_t first = 0)
{
    const std::int64_t h = d / 2;
    if (p == padding || j >= 2 * h)
        return 0.0;
    const std::int64_t pair = j < h ? j : j - h;
    const double angle = double(p + first) * std::exp(-double(pair) * std::log(base) / double(h - 1));
    return j < h ? std::sin(angle) : std::cos(angle);
}

// float16's and bfloat16's rounding of a float, to nearest, ties to even.
inline float toHalf(float x)
{
    if (x == 0.0f)
        return x;
    const int e = std::ilogb(x);
    const double step = std::ldexp(1.0, std::max(e, -14) - 10);
    return float(std::nearbyint(double(x) / step) * step);
}
inline float toBFloat(float x)
{
    std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return std::bit_cast<float>(bits & 0xffff0000u);
}
inline double roundedPosition(std::int64_t p, int mantissaBits)
{
    if (p == 0)
        return 0.0;
    const double step = std::ldexp(1.0, std::max(std::ilogb(double(p)) - mantissaBits, 0));
    return std::nearbyint(double(p) / step) * step;
}

// Random numbers: no table of positions.
inline RowMatrixXf random(std::int64_t rows, std::int64_t cols, unsigned seed)
{
    std::mt19937 engine(seed);
    std::normal_distribution<double> normal;
    return table(rows, cols, [&](std::int64_t, std::int64_t) { return normal(engine); });
}

// A RoBERTa-shaped learned table: row 0 as initialised (N(0, 0.02), never trained), row 1
// padding_idx's zeros, then rows that drift smoothly from position to position.
inline RowMatrixXf roberta(std::int64_t rows, std::int64_t cols, unsigned seed)
{
    std::mt19937 engine(seed);
    std::normal_distribution<double> normal;
    RowMatrixXf t(rows, cols);
    for (std::int64_t j = 0; j < cols; ++j)
        t(0, j) = float(0.02 * normal(engine));
    t.row(1).setZero();
    std::vector<double> state(static_cast<std::size_t>(cols));
    for (double &s : state)
        s = normal(engine);
    for (std::int64_t p = 2; p < rows; ++p) {
        for (std::int64_t j = 0; j < cols; ++j) {
            double &s = state[std::size_t(j)];
            s = 0.995 * s + 0.1 * normal(engine);
            t(p, j) = float(0.05 * s);
        }
    }
    return t;
}

// A finding of the match: a word ("split"), a number (a base), or what is not there.
inline QString word(const posenc::TableMatch &m, const QString &key)
{
    const posenc::MatchValue v = m.finding(key);
    return std::holds_alternative<QString>(v) ? std::get<QString>(v) : QString();
}
inline double number(const posenc::TableMatch &m, const QString &key)
{
    const posenc::MatchValue v = m.finding(key);
    if (const auto *d = std::get_if<double>(&v))
        return *d;
    if (const auto *i = std::get_if<std::int64_t>(&v))
        return double(*i);
    return std::numeric_limits<double>::quiet_NaN();
}

// A declaration of one parameter, set by `set` on the parameters.
inline posenc::TableCheck::Declared declaring(const QString &key, const std::function<void(posenc::Params &)> &set)
{
    posenc::TableCheck::Declared declared;
    set(declared.params);
    declared.keys = {key};
    return declared;
}

// A declaration that the rows hold positions 0 .. L - 1 (the command line's --positions 0:L): rows at
// another window are then position-offset. Undeclared, a table at a window of positions is a faithful
// slice, its window said, not judged (issue 56).
inline posenc::TableCheck::Declared positionsFromZero()
{
    posenc::TableCheck::Declared declared;
    declared.positionsDeclared = true;
    return declared;
}

// The sizes a mistake is checked at: small enough to sample whole, 4096 x 512, and 1,048,576 x 64
// (a table of 256 MiB) with POSENC_VERDICTS_LONG set, by hand.
struct TableSize
{
    const char *name;
    std::int64_t rows, cols;
};
inline std::vector<TableSize> tableSizes()
{
    std::vector<TableSize> out {{"256 x 64", 256, 64}, {"4096 x 512", 4096, 512}};
    if (qEnvironmentVariableIsSet("POSENC_VERDICTS_LONG"))
        out.push_back({"1048576 x 64", 1048576, 64});
    return out;
}

// "columns 3..7, 9 (6 of 64)": a set of columns as the check's report words it (runs, or an even
// step past six runs).
inline QString columnWords(const std::vector<std::int64_t> &columns, std::int64_t of)
{
    if (std::int64_t(columns.size()) == of)
        return QStringLiteral("every column (%1)").arg(of);
    QStringList runs;
    for (std::size_t i = 0; i < columns.size();) {
        std::size_t j = i + 1;
        while (j < columns.size() && columns[j] == columns[j - 1] + 1)
            ++j;
        runs.append(j - i == 1 ? QString::number(columns[i])
                               : QStringLiteral("%1..%2").arg(columns[i]).arg(columns[j - 1]));
        i = j;
    }
    const QString tally = QStringLiteral("%1 of %2").arg(columns.size()).arg(of);
    if (runs.size() <= 6)
        return QStringLiteral("columns %1 (%2)").arg(runs.join(QStringLiteral(", ")), tally);
    const std::int64_t step = columns[1] - columns[0];
    bool even = step > 1;
    for (std::size_t i = 2; i < columns.size() && even; ++i)
        even = columns[i] - columns[i - 1] == step;
    if (even && step == 2)
        return QStringLiteral("every second column from %1 to %2 (%3)")
            .arg(columns.front())
            .arg(columns.back())
            .arg(tally);
    return QStringLiteral("columns %1, ... %2 (%3)").arg(runs.mid(0, 4).join(QStringLiteral(", ")), runs.back(), tally);
}

struct Checked
{
    posenc::TableMatch match;
    posenc::TableCheck::Verification verification;
    QString error;
};

// A match found (identify, expect, expectTable), streamed over `rows` and concluded, as the
// command line runs it; or the message of why there is none.
inline Checked concluded(const posenc::TableRows &rows, std::variant<posenc::TableMatch, QString> found,
                         const posenc::TableCheck::StreamOptions &options = {})
{
    Checked out;
    if (const auto *error = std::get_if<QString>(&found)) {
        out.error = *error;
        return out;
    }
    out.match = std::get<posenc::TableMatch>(std::move(found));
    out.verification = posenc::TableCheck::verify(out.match, rows, options);
    if (out.verification.error)
        out.error = *out.verification.error;
    posenc::TableCheck::conclude(out.match, out.verification);
    return out;
}

inline Checked check(RowMatrixXf values, posenc::StoredType stored = posenc::StoredType::Float32,
                     const posenc::TableCheck::Declared &declared = {}, double textRounding = 0.0)
{
    const posenc::MatrixRows rows(std::make_shared<const RowMatrixXf>(std::move(values)), stored,
                                  QStringLiteral("test"), textRounding);
    posenc::TableCheck::StreamOptions options;
    options.chunkBytes = std::uint64_t(1) << 18; // several chunks even for small tables
    return concluded(rows, posenc::TableCheck::identify(rows, declared), options);
}

} // namespace checktables
