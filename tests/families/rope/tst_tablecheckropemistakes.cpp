// RoPE's mistakes of placement and of scaling, at three sizes (1,048,576 x 64 with
// POSENC_VERDICTS_LONG set, by hand): proportional RoPE whose zero-frequency pairs sit elsewhere
// than HF puts them (zero-pairs-misplaced), and yarn whose ramp runs the wrong way
// (rope-scaling-reversed). Every table is written here from float64 formulas of
// modeling_rope_utils.py: _compute_proportional_rope_parameters and _compute_yarn_parameters.
#include "core/CheckTables.h"
#include "support/Sanitizer.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace tst_tablecheckropemistakes {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

constexpr double kPi = std::numbers::pi;

// _compute_proportional_rope_parameters: rope_angles = int(F * head_dim // 2) pairs turn at
// theta^(-2j/head_dim) / factor, then nope_angles = head_dim // 2 - rope_angles zeros.
std::vector<double> proportional(std::int64_t headDim, double theta, double partial)
{
    const auto live = std::int64_t(std::floor(partial * double(headDim) / 2.0));
    std::vector<double> inv(std::size_t(headDim / 2), 0.0);
    for (std::int64_t j = 0; j < live; ++j)
        inv[std::size_t(j)] = std::pow(theta, -2.0 * double(j) / double(headDim));
    return inv;
}

// _compute_yarn_parameters with HF's defaults (beta_fast 32, beta_slow 1, truncate): the ramp
// between the correction range's ends, and inv_freq_extrapolation_factor = 1 - ramp, or the ramp
// itself where `reversed`.
struct Yarn
{
    std::vector<double> inv, ramp;
    double attention = 1.0;
};
Yarn yarn(std::int64_t dim, double theta, double factor, double original, bool reversed)
{
    const auto correction = [&](double rotations) {
        return double(dim) * std::log(original / (rotations * 2.0 * kPi)) / (2.0 * std::log(theta));
    };
    const double low = std::max(std::floor(correction(32.0)), 0.0);
    double high = std::min(std::ceil(correction(1.0)), double(dim - 1));
    if (low == high)
        high += 0.001;
    Yarn y;
    y.attention = 0.1 * std::log(factor) + 1.0;
    for (std::int64_t i = 0; i < dim / 2; ++i) {
        const double pos = std::pow(theta, double(2 * i) / double(dim));
        const double ramp = std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
        const double extrapolation = reversed ? ramp : 1.0 - ramp;
        y.inv.push_back(1.0 / (factor * pos) * (1.0 - extrapolation) + 1.0 / pos * extrapolation);
        y.ramp.push_back(ramp);
    }
    return y;
}

// A RoPE table whose column c holds pair pairOf[c]'s A cos or A sin (-1: frequency 0).
RowMatrixXf ropeTable(std::int64_t rows, const std::vector<double> &inv, const std::vector<std::int64_t> &pairOf,
                      bool cosine, double amplitude = 1.0)
{
    return table(rows, std::int64_t(pairOf.size()), [&](std::int64_t p, std::int64_t c) {
        const std::int64_t pair = pairOf[std::size_t(c)];
        const double angle = pair < 0 ? 0.0 : double(p) * inv[std::size_t(pair)];
        return amplitude * (cosine ? std::cos(angle) : std::sin(angle));
    });
}

// HF's rotary embedding: cat((freqs, freqs)), column c holds pair c mod d/2.
std::vector<std::int64_t> hfColumns(std::int64_t d)
{
    std::vector<std::int64_t> pairOf(static_cast<std::size_t>(d));
    for (std::int64_t c = 0; c < d; ++c)
        pairOf[std::size_t(c)] = c % (d / 2);
    return pairOf;
}

// Where a port may put proportional's identity pairs instead (live pairs of d / 2 turning).
enum class Placement { EndOfHead, StartOfHalves, Alternating };

// A table of the test: its name, placement, partial_rotary_factor, function and the placement's words.
struct PlacementCase
{
    const char *name;
    Placement placement;
    double partial;
    bool cosine;
    const char *where;
};

std::vector<std::int64_t> misplacedColumns(std::int64_t d, std::int64_t live, Placement placement)
{
    const std::int64_t h = d / 2, nope = h - live;
    std::vector<std::int64_t> pairOf(static_cast<std::size_t>(d));
    for (std::int64_t c = 0; c < d; ++c) {
        const std::int64_t k = c % h;
        switch (placement) {
        case Placement::EndOfHead: // GPT-NeoX's rotary_ndims first, the passed columns after
            pairOf[std::size_t(c)] = c < live ? c : c < 2 * live ? c - live : -1;
            break;
        case Placement::StartOfHalves: // inv_freq = cat((zeros, inv_freq_rotated))
            pairOf[std::size_t(c)] = k < nope ? -1 : k - nope;
            break;
        case Placement::Alternating: // stack((inv_freq_rotated, zeros), -1).flatten()
            pairOf[std::size_t(c)] = k % 2 == 1 ? -1 : k / 2;
            break;
        }
    }
    return pairOf;
}

// The columns where two tables differ by more than `threshold` in their first 4096 rows, and the
// largest |a - b| over every row (NaN past 4096 x 512 cells, not computed).
struct Difference
{
    std::vector<std::int64_t> columns;
    double largest = 0.0;
};
Difference difference(const RowMatrixXf &a, const std::vector<double> &inv, const std::vector<std::int64_t> &pairOf,
                      bool cosine, double amplitude, double threshold)
{
    Difference out;
    const bool whole = a.size() <= 4096 * 512;
    std::vector<double> columnMax(std::size_t(a.cols()), 0.0);
    for (std::int64_t p = 0; p < (whole ? a.rows() : std::min<std::int64_t>(a.rows(), 4096)); ++p)
        for (std::int64_t c = 0; c < a.cols(); ++c) {
            const std::int64_t pair = pairOf[std::size_t(c)];
            const double angle = pair < 0 ? 0.0 : double(p) * inv[std::size_t(pair)];
            const double e = std::fabs(double(a(p, c)) - amplitude * (cosine ? std::cos(angle) : std::sin(angle)));
            columnMax[std::size_t(c)] = std::max(columnMax[std::size_t(c)], e);
        }
    for (std::int64_t c = 0; c < a.cols(); ++c) {
        if (columnMax[std::size_t(c)] > threshold)
            out.columns.push_back(c);
        out.largest = std::max(out.largest, columnMax[std::size_t(c)]);
    }
    if (!whole)
        out.largest = std::nan("");
    return out;
}

} // namespace

class TestTableCheckRopeMistakes : public QObject
{
    Q_OBJECT

private slots:
    // Proportional RoPE (Gemma 4's full attention: theta 1e6, partial_rotary_factor 0.25; 0.5 for the
    // alternating placement) with its identity pairs elsewhere: the mistake named, the place found
    // and HF's place in words, the deviating columns and the largest error against HF's table.
    void zeroPairsMisplaced_data()
    {
        QTest::addColumn<RowMatrixXf>("values");
        QTest::addColumn<QString>("where"); // the placement's words in the diagnosis
        QTest::addColumn<QString>("found"); // the identity columns found, in words
        QTest::addColumn<QString>("hf"); // HF's identity columns, in words
        QTest::addColumn<QString>("deviating"); // the deviating columns, in words
        QTest::addColumn<double>("largest"); // the largest |table - HF's| in float64, or NaN
        for (const TableSize &s : tableSizes()) {
            const std::int64_t L = s.rows, d = s.cols, h = d / 2;
            const PlacementCase cases[] = {
                {"cos, identity pairs at the end of the head", Placement::EndOfHead, 0.25, true,
                 "at the end of the head"},
                {"sin, identity pairs at the end of the head", Placement::EndOfHead, 0.25, false,
                 "at the end of the head"},
                {"cos, identity pairs at the start of each half", Placement::StartOfHalves, 0.25, true,
                 "at the start of each half"},
                {"cos, identity pairs interleaved", Placement::Alternating, 0.5, true,
                 "interleaved with the turning pairs"},
            };
            for (const PlacementCase &k : cases) {
                const std::vector<double> inv = proportional(d, 1e6, k.partial);
                const auto live = std::int64_t(std::floor(k.partial * double(d) / 2.0));
                const std::vector<std::int64_t> pairOf = misplacedColumns(d, live, k.placement);
                RowMatrixXf t = ropeTable(L, inv, pairOf, k.cosine);
                std::vector<std::int64_t> identity, hfIdentity;
                for (std::int64_t c = 0; c < d; ++c) {
                    if (pairOf[std::size_t(c)] < 0)
                        identity.push_back(c);
                    if (c % h >= live)
                        hfIdentity.push_back(c);
                }
                const Difference diff = difference(t, inv, hfColumns(d), k.cosine, 1.0, 1e-3);
                QTest::addRow("%s, %s", k.name, s.name)
                    << t << QString::fromLatin1(k.where) << columnWords(identity, d) << columnWords(hfIdentity, d)
                    << columnWords(diff.columns, d) << diff.largest;
            }
        }
    }
    void zeroPairsMisplaced()
    {
        QFETCH(RowMatrixXf, values);
        POSENC_SAMPLE_LARGE_UNDER_SANITIZER(values.rows() > 256);
        QFETCH(QString, where);
        QFETCH(QString, found);
        QFETCH(QString, hf);
        QFETCH(QString, deviating);
        QFETCH(double, largest);
        const Checked c = check(std::move(values));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        const QString report = m.diagnosis + u" | "_s + m.deviations;
        QVERIFY2(m.verdict == CheckVerdict::Mistake, qPrintable(report));
        QCOMPARE(m.mistakes, QStringList {u"zero-pairs-misplaced"_s});
        QCOMPARE(word(m, u"rope_type"_s), u"proportional"_s);
        QVERIFY2(m.diagnosis.contains(u"sit %1"_s.arg(where)), qPrintable(report));
        QVERIFY2(m.diagnosis.contains(u", in %1;"_s.arg(found)), qPrintable(report));
        QVERIFY2(m.diagnosis.contains(u"in %1 (_compute_proportional_rope_parameters"_s.arg(hf)), qPrintable(report));
        QVERIFY2(m.deviations.startsWith(deviating + u";"_s), qPrintable(report + u" / expected "_s + deviating));
        if (!std::isnan(largest))
            QVERIFY2(std::fabs(*m.maxAbsError - largest) <= 1e-6,
                     qPrintable(u"%1 against %2"_s.arg(*m.maxAbsError).arg(largest)));
    }

    // HF's own proportional table is correct (Gemma 4's) or a variant, never this mistake; and a
    // GPT-NeoX partial rotary table with its passed columns written out (exponent over rotary_dim)
    // is not called proportional's.
    void zeroPairsInPlaceAreNoMistake()
    {
        const std::vector<double> inv = proportional(512, 1e6, 0.25);
        Checked c = check(ropeTable(2048, inv, hfColumns(512), true));
        QCOMPARE(c.match.verdict, CheckVerdict::Correct);
        QVERIFY2(c.match.correctAgainst.contains(u"Gemma 4"_s), qPrintable(c.match.correctAgainst));
        std::vector<double> neox(12);
        for (std::int64_t j = 0; j < 12; ++j)
            neox[std::size_t(j)] = std::pow(10000.0, -2.0 * double(j) / 24.0);
        c = check(ropeTable(2048, neox, misplacedColumns(96, 12, Placement::EndOfHead), true));
        QVERIFY2(!c.match.mistakes.contains(u"zero-pairs-misplaced"_s), qPrintable(c.match.diagnosis));
        QVERIFY(c.match.verdict != CheckVerdict::Correct);
    }

    // Yarn (theta 10000, factor 4, original 4096, HF's betas) whose ramp is taken where 1 - ramp
    // belongs: the fast pairs divided, the slow kept; the bands named by pair.
    void yarnBlendReversed_data()
    {
        QTest::addColumn<RowMatrixXf>("values");
        QTest::addColumn<QString>("divided"); // the pairs the table divides, in words
        QTest::addColumn<QString>("deviating");
        QTest::addColumn<double>("largest");
        for (const TableSize &s : tableSizes()) {
            const std::int64_t d = s.cols;
            for (const bool cosine : {true, false}) {
                const Yarn wrong = yarn(d, 10000.0, 4.0, 4096.0, true);
                const Yarn right = yarn(d, 10000.0, 4.0, 4096.0, false);
                RowMatrixXf t = ropeTable(s.rows, wrong.inv, hfColumns(d), cosine, wrong.attention);
                const auto kept = std::count(right.ramp.begin(), right.ramp.end(), 0.0);
                const Difference diff = difference(t, right.inv, hfColumns(d), cosine, right.attention, 1e-5);
                QTest::addRow("%s, %s", cosine ? "cos" : "sin", s.name)
                    << t << u"pairs 0..%1 (the short wavelengths) divided"_s.arg(kept - 1)
                    << columnWords(diff.columns, d) << diff.largest;
            }
        }
    }
    void yarnBlendReversed()
    {
        QFETCH(RowMatrixXf, values);
        POSENC_SAMPLE_LARGE_UNDER_SANITIZER(values.rows() > 256);
        QFETCH(QString, divided);
        QFETCH(QString, deviating);
        QFETCH(double, largest);
        const Checked c = check(std::move(values));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        const QString report = m.diagnosis + u" | "_s + m.deviations;
        QVERIFY2(m.verdict == CheckVerdict::Mistake, qPrintable(report));
        QCOMPARE(m.mistakes, QStringList {u"rope-scaling-reversed"_s});
        QCOMPARE(word(m, u"rope_type"_s), u"yarn"_s);
        QVERIFY2(m.diagnosis.contains(u"yarn's blend runs the wrong way (factor 4, original_max_position_embeddings "
                                      "4096"_s),
                 qPrintable(report));
        QVERIFY2(m.diagnosis.contains(divided), qPrintable(report + u" / expected "_s + divided));
        QVERIFY2(m.deviations.startsWith(deviating + u";"_s), qPrintable(report + u" / expected "_s + deviating));
        if (!std::isnan(largest))
            QVERIFY2(std::fabs(*m.maxAbsError - largest) <= 1e-6,
                     qPrintable(u"%1 against %2"_s.arg(*m.maxAbsError).arg(largest)));
    }
};

POSENC_TEST_APPLESS_MAIN(TestTableCheckRopeMistakes)
} // namespace tst_tablecheckropemistakes
#include "tst_tablecheckropemistakes.moc"
