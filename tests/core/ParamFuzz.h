#pragma once

// Random parameters over the whole parameter space of every family, for the invariants' fuzz
// tests (tst_finitetables, tst_finitefigures): each family's defaults, then a few rows of the
// parameter table set to values at and past their ranges, drawn from the rows themselves (their
// kind, bounds and choices), so that a row added to the table is fuzzed without a word here.
//
// Short mode (ctest) runs a fixed number of draws from fixed seeds; POSENC_FUZZ_SECONDS=600 runs
// for that long by hand, and POSENC_FUZZ_SEED replays one draw (each failure prints its seed).

#include "core/FamilySpec.h"
#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "core/Params.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <vector>

namespace fuzzing {

// The families, by the words of the `encoding` row.
inline QStringList families()
{
    const posenc::ParamSpec *row = posenc::ParamTable::find(QStringLiteral("encoding"));
    return row ? row->choices : QStringList();
}

// By hand, one draw may take minutes (a table at the memory budget's size on a loaded machine):
// Qt Test's watchdog, which would abort a test function after five, waits a day instead. Set
// before main(), which starts the watchdog.
inline const bool kLongWatchdog = [] {
    if (qEnvironmentVariableIsSet("POSENC_FUZZ_SECONDS") && !qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "86400000");
    return true;
}();

// How long a run lasts: a number of draws in short mode, or seconds by hand. POSENC_FUZZ_SECONDS
// is the whole test's: each of its `rows` data rows takes its share, so that 600 is ten minutes
// (and no row meets Qt Test's five-minute limit of a test function).
struct Budget
{
    int draws = 0;
    double seconds = 0.0;
    std::optional<std::uint64_t> replay;

    static Budget fromEnvironment(int shortDraws, qsizetype rows)
    {
        Budget b;
        b.draws = shortDraws;
        bool ok = false;
        const double seconds = qEnvironmentVariable("POSENC_FUZZ_SECONDS").toDouble(&ok);
        if (ok && seconds > 0.0)
            b.seconds = seconds / double(std::max<qsizetype>(rows, 1));
        const qulonglong seed = qEnvironmentVariable("POSENC_FUZZ_SEED").toULongLong(&ok);
        if (ok)
            b.replay = seed;
        return b;
    }
    // Whether draw `n` is still to run, `clock` started with the run.
    bool more(int n, const QElapsedTimer &clock) const
    {
        if (replay)
            return n == 0;
        return seconds > 0.0 ? clock.elapsed() < seconds * 1000.0 : n < draws;
    }
    std::uint64_t seed(const QString &family, int n) const
    {
        return replay ? *replay : std::uint64_t(qHash(family)) * 1000003u + std::uint64_t(n);
    }
};

class ParamDraw
{
public:
    explicit ParamDraw(std::uint64_t seed)
        : m_random(seed)
    { }

    // The family's defaults with 1 to 4 rows set at random, half the time within their ranges.
    posenc::Params draw(const QString &family)
    {
        posenc::Params p;
        posenc::ParamText::set(p, QStringLiteral("encoding"), family);
        // Tables of a size that a few blocks of them are quick to compute, and past it sometimes.
        if (chance(0.7))
            p.maxLen = std::int64_t(1) << uniform(0, 24);
        if (chance(0.5))
            p.dModel = std::int64_t(1) << uniform(0, 14);
        const QList<posenc::ParamSpec> &rows = posenc::ParamTable::rows();
        const int changes = uniform(1, 8);
        for (int i = 0; i < changes; ++i) {
            // Mostly a row the settings read (the family's, the chosen type's), so that each draw
            // changes what is computed.
            const posenc::ParamSpec *row = nullptr;
            for (int attempt = 0; attempt < 16 && !row; ++attempt) {
                const posenc::ParamSpec &candidate = rows[uniform(0, int(rows.size()) - 1)];
                if (!candidate.idle || !candidate.idle(p) || chance(0.1))
                    row = &candidate;
            }
            if (!row || row->key == QStringLiteral("encoding") || row->key == QStringLiteral("memory-budget"))
                continue;
            set(p, *row, chance(0.5));
        }
        if (p.encoding == posenc::Encoding::Learned && !p.learned.table)
            p.learned.table = positionTable(p);
        // Most draws mend what the checks refuse, a row at a time, so that the hostile values the
        // checks accept meet many settings of the other rows (a type's needed keys, a list's length).
        for (int round = 0; round < 6 && chance(0.8); ++round) {
            const QList<posenc::ParamError> errors = p.validate();
            if (errors.isEmpty())
                break;
            for (const posenc::ParamError &error : errors) {
                if (const posenc::ParamSpec *row = posenc::ParamTable::find(error.key))
                    mend(p, *row, error);
            }
        }
        return p;
    }

    bool chance(double probability) { return std::uniform_real_distribution<double>(0.0, 1.0)(m_random) < probability; }
    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(m_random); }

private:
    // A number within [lo, hi], log-uniform where the range spans decades.
    double within(double lo, double hi)
    {
        if (lo > 0.0 && hi / lo > 100.0)
            return std::exp(std::uniform_real_distribution<double>(std::log(lo), std::log(hi))(m_random));
        return std::uniform_real_distribution<double>(lo, hi)(m_random);
    }

    double hostileNumber()
    {
        static const double values[] = {0.0,
                                        -0.0,
                                        -1.0,
                                        5e-324,
                                        1e-308,
                                        1e-12,
                                        1e-6,
                                        1e-3,
                                        0.5,
                                        1.0,
                                        1.0 + 1e-12,
                                        2.0,
                                        3.0,
                                        32.0,
                                        4096.0,
                                        1e4,
                                        1e6,
                                        1e6 + 1,
                                        1e15,
                                        1e16,
                                        1e300,
                                        1e308,
                                        -1e308,
                                        std::numeric_limits<double>::max(),
                                        std::numeric_limits<double>::infinity(),
                                        std::numeric_limits<double>::quiet_NaN()};
        if (chance(0.3))
            return within(1e-9, 1e12);
        return values[uniform(0, int(std::size(values)) - 1)];
    }

    std::int64_t integer(std::int64_t lo, std::int64_t hi, bool inRange)
    {
        if (inRange || chance(0.5)) {
            if (chance(0.3))
                return chance(0.5) ? lo : hi;
            return std::int64_t(std::llround(within(double(std::max<std::int64_t>(lo, 1)), double(std::max(hi, lo)))));
        }
        static const std::int64_t values[] = {-1, 0, 1, 2, 3, std::int64_t(1) << 31, std::int64_t(1) << 62};
        if (chance(0.5))
            return chance(0.5) ? lo - 1 : hi + 1;
        return values[uniform(0, int(std::size(values)) - 1)];
    }

    void set(posenc::Params &p, const posenc::ParamSpec &row, bool inRange)
    {
        using posenc::ParamKind;
        using posenc::ParamValue;
        switch (row.kind) {
        case ParamKind::Integer:
        case ParamKind::OptionalInteger: {
            if (row.kind == ParamKind::OptionalInteger && chance(0.2)) {
                row.assign(p, ParamValue(std::monostate()));
                return;
            }
            const auto [lo, hi] = row.bounds ? row.bounds(p) : std::pair<std::int64_t, std::int64_t>(0, 1 << 20);
            row.assign(p, ParamValue(integer(lo, hi, inRange)));
            return;
        }
        case ParamKind::Unsigned:
            row.assign(p, ParamValue(std::uint64_t(m_random())));
            return;
        case ParamKind::Number:
        case ParamKind::OptionalNumber:
            if (row.kind == ParamKind::OptionalNumber && chance(0.2)) {
                row.assign(p, ParamValue(std::monostate()));
                return;
            }
            row.assign(p, ParamValue(inRange ? within(1e-3, 1e6) : hostileNumber()));
            return;
        case ParamKind::NumberList: {
            std::vector<double> list(std::size_t(chance(0.5) ? uniform(0, 8) : uniform(0, 4096)));
            for (double &v : list)
                v = inRange ? within(1e-3, 1e3) : hostileNumber();
            row.assign(p, ParamValue(list));
            return;
        }
        case ParamKind::Probability:
            row.assign(p, ParamValue(inRange ? within(0.0, 1.0) : hostileNumber()));
            return;
        case ParamKind::Choice:
            if (!row.choices.isEmpty())
                row.assign(p, ParamValue(row.choices[uniform(0, int(row.choices.size()) - 1)]));
            return;
        case ParamKind::ChoiceOrNumber:
            if (chance(0.5) && !row.choices.isEmpty())
                row.assign(p, ParamValue(row.choices[uniform(0, int(row.choices.size()) - 1)]));
            else if (row.assignCustom)
                row.assignCustom(p, inRange ? within(1e-3, 1e3) : hostileNumber());
            return;
        case ParamKind::Switch:
            row.assign(p, ParamValue(chance(0.5)));
            return;
        case ParamKind::IndexList: {
            std::vector<std::int64_t> list(std::size_t(uniform(0, 6)));
            for (std::int64_t &v : list)
                v = integer(-p.maxLen, p.maxLen, inRange);
            row.assign(p, ParamValue(list));
            return;
        }
        case ParamKind::Text:
            row.assign(p, ParamValue(text(p, inRange)));
            return;
        case ParamKind::Matrix:
            return; // a file's rows: the learned family's table is drawn below
        }
    }

    // A text row's value (the prompt): segments text:N, image:TxHxW and video:TxHxW[@SECONDS],
    // within range grids of whole merge blocks, or past it numbers and words that are none of them.
    QString text(const posenc::Params &p, bool inRange)
    {
        if (!inRange && chance(0.3)) {
            static const char *const words[]
                = {"",        ",",       "text",          "text:",           "image:1x2", "video:0x0x0",
                   "audio:4", "text:-1", "image:1x2x2@1", "video:1x2x2@nan", "text:1e9"};
            return QString::fromLatin1(words[uniform(0, int(std::size(words)) - 1)]);
        }
        const std::int64_t merge = std::clamp<std::int64_t>(p.mrope.spatialMergeSize, 1, 64);
        const auto n = [&](std::int64_t hi) { return QString::number(integer(1, hi, inRange)); };
        const auto side
            = [&](std::int64_t hi) { return inRange ? QString::number(merge * integer(1, hi, true)) : n(hi * merge); };
        QStringList segments;
        for (int i = uniform(1, 6); i > 0; --i) {
            switch (uniform(0, 2)) {
            case 0:
                segments.append(QStringLiteral("text:") + n(1 << 16));
                break;
            case 1:
                segments.append(QStringLiteral("image:%1x%2x%3").arg(n(4), side(64), side(64)));
                break;
            default:
                segments.append(QStringLiteral("video:%1x%2x%3@%4")
                                    .arg(n(16), side(32), side(32))
                                    .arg(inRange ? within(1e-3, 10.0) : hostileNumber()));
                break;
            }
        }
        return segments.join(QLatin1Char(','));
    }

    // A value within the row's range; a list of the length its range names ("a list of 64 numbers").
    void mend(posenc::Params &p, const posenc::ParamSpec &row, const posenc::ParamError &error)
    {
        // A table too short for max_len and the offset: the rows it has, from position 0.
        if (row.kind == posenc::ParamKind::Matrix && p.learned.table) {
            p.learned.offset = 0;
            p.maxLen = std::max<std::int64_t>(1, p.learned.table->values.rows());
            return;
        }
        // A list of counts its range says must add up to a number (M-RoPE's section and its pairs).
        static const QRegularExpression sum(QStringLiteral("summing to the (\\d+)"));
        if (const QRegularExpressionMatch match = sum.match(error.allowed);
            match.hasMatch() && row.kind == posenc::ParamKind::IndexList) {
            const std::int64_t n = match.captured(1).toLongLong();
            const std::int64_t part = std::int64_t(uniform(0, int(std::min<std::int64_t>(n / 2, 1 << 20))));
            row.assign(p,
                       posenc::ParamValue(
                           std::vector<std::int64_t> {n - 2 * (part / 2) - part % 2, part / 2, part / 2 + part % 2}));
            return;
        }
        // Half the time the family's default, which the other rows' values rarely make invalid (a
        // list of the right length, a prompt of whole merge blocks); else a value in range.
        if (row.value && chance(0.5)) {
            posenc::Params defaults;
            posenc::ParamText::set(defaults, QStringLiteral("encoding"), posenc::Families::word(p.encoding));
            row.assign(p, row.value(defaults));
            return;
        }
        if (row.kind != posenc::ParamKind::NumberList) {
            set(p, row, true);
            return;
        }
        static const QRegularExpression length(QStringLiteral("a list of (\\d+) numbers"));
        const QRegularExpressionMatch match = length.match(error.allowed);
        std::vector<double> list(match.hasMatch() ? std::size_t(match.captured(1).toLongLong()) : 1);
        for (double &v : list)
            v = within(1e-3, 1e3);
        row.assign(p, posenc::ParamValue(list));
    }

    // A learned table of random finite rows, of the width the position term takes.
    std::shared_ptr<const posenc::PositionMatrix> positionTable(const posenc::Params &p)
    {
        auto table = std::make_shared<posenc::PositionMatrix>();
        const std::int64_t cols = std::clamp<std::int64_t>(p.dModel, 1, 4096);
        const std::int64_t rows = std::clamp<std::int64_t>(p.maxLen + p.learned.offset, 1, 4096);
        std::normal_distribution<float> normal(0.0f, 0.02f);
        table->values.resize(rows, cols);
        for (Eigen::Index i = 0; i < table->values.size(); ++i)
            table->values.data()[i] = normal(m_random);
        table->source = QStringLiteral("fuzz");
        return table;
    }

    std::mt19937_64 m_random;
};

} // namespace fuzzing
