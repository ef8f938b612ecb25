// The dumps engineers make of a port, read as what they are and their mistake named
// (docs/ARCHITECTURE.md, Checking a table, "Shapes" and "A declared reference"):
// - Paddle's cos [B, L, 1, D] (paddlenlp/transformers/llama/modeling.py, apply_rotary_pos_emb:
//   cos[position_ids].unsqueeze(2)) with its [B, L] position_ids, B = 3 as well as 4: each slice's
//   rows at its own ids, never taken for M-RoPE's [3, L] t, h, w unless M-RoPE is declared;
// - a declared YaRN table times a constant (sgl-project/sglang PR #33558: the attention factor
//   applied twice): attention-factor, with both values;
// - a table that is --expect-table's reference times a constant, whatever the reference reads as:
//   scaled, with the constant;
// - a packed batch's rows at 0..L-1 where the reference's positions restart at the second
//   document (NVIDIA/Megatron-LM#453: rotary_pos_emb(seq_length) ignores position_ids):
//   position-offset, with the rows and the positions they hold;
// - a published form against --expect-table's reference of the same form times c: scaled, never
//   correct; a decode step's cos [B, H, 1, D] undeclared: unknown, not same-row;
// - a table linear in a position (RoPE's angles, ALiBi's bias) times c:
//   positions-scaled, RoPE's linear scaling with factor 1 / c; --pe-scale typed to a few digits, and
//   refused on a table it cannot apply to;
// - DETR's map flattened to [H·W, C] (pos.flatten(2).permute(0, 2, 1)) under --expect sincos-2d
//   --grid: the map's form, --map-form held to; a reference holding +inf or NaN refused in a line;
// - a complex rotary cache (SAM 2's axial, Llama's) as view_as_real dumps it.
// Every table is computed here in float64 from the formulas, then rounded once to float32.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/DetrReference.h"
#include "support/TestMain.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

namespace tst_clidumpsnamed {
using namespace Qt::StringLiterals;

namespace {

// RoPE's half-layout cos of `inv` at `positions`: cat(freqs, freqs).cos() * amplitude, as
// transformers' LlamaRotaryEmbedding.forward computes it (emb = torch.cat((freqs, freqs), dim=-1)).
std::vector<double> ropeCos(const std::vector<double> &inv, const std::vector<double> &positions, double amplitude)
{
    const std::size_t half = inv.size();
    std::vector<double> t;
    t.reserve(positions.size() * 2 * half);
    for (const double p : positions)
        for (std::size_t c = 0; c < 2 * half; ++c)
            t.push_back(amplitude * std::cos(p * inv[c % half]));
    return t;
}

std::vector<double> plainInv(double theta, int dim)
{
    std::vector<double> inv;
    for (int i = 0; i < dim; i += 2)
        inv.push_back(1.0 / std::pow(theta, double(i) / dim));
    return inv;
}

// transformers' _compute_yarn_parameters (modeling_rope_utils.py), truncate true: the frequencies
// blended by the linear ramp between find_correction_range(beta_fast, beta_slow), and
// get_mscale(factor) = 0.1 ln(factor) + 1 the attention factor.
std::vector<double> yarnInv(double theta, int dim, double factor, double original, double fast, double slow)
{
    const auto correction = [&](double rotations) {
        return dim * std::log(original / (rotations * 2.0 * std::numbers::pi)) / (2.0 * std::log(theta));
    };
    const double low = std::max(std::floor(correction(fast)), 0.0);
    double high = std::min(std::ceil(correction(slow)), double(dim - 1));
    if (low == high)
        high += 0.001;
    std::vector<double> inv;
    for (int i = 0; i < dim / 2; ++i) {
        const double extrapolation = 1.0 / std::pow(theta, 2.0 * i / dim);
        const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
        const double keep = 1.0 - ramp; // inv_freq_extrapolation_factor
        inv.push_back(extrapolation / factor * (1.0 - keep) + extrapolation * keep);
    }
    return inv;
}

std::vector<double> range(std::int64_t from, std::int64_t count)
{
    std::vector<double> p;
    for (std::int64_t k = 0; k < count; ++k)
        p.push_back(double(from + k));
    return p;
}

QStringList ropeFlags(double theta, int dim)
{
    return {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, QString::number(theta), u"--head-dim"_s, QString::number(dim)};
}

} // namespace

class TestCliDumpsNamed : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_count = 0;

    QString file(const QByteArray &bytes) { return CliCheck::write(m_dir, u"t%1.npy"_s.arg(m_count++), bytes); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Paddle's cos [B, L, 1, D] at left-padded position_ids (attention_mask.cumsum(-1) - 1, the
    // padding 1), against the same cache at 0..L-1 in every slice (one offset for the batch).
    void paddleBatchIdsPerSlice_data()
    {
        QTest::addColumn<int>("batch");
        QTest::newRow("B = 3, [3, L] ids") << 3;
        QTest::newRow("B = 4") << 4;
    }

    void paddleBatchIdsPerSlice()
    {
        QFETCH(int, batch);
        constexpr int kLength = 48, kDim = 64;
        const std::vector<double> inv = plainInv(10000.0, kDim);
        const std::vector<int> pads {0, 5, 20, 9};
        std::vector<double> ids, right, wrong;
        for (int b = 0; b < batch; ++b) {
            std::vector<double> at;
            for (int r = 0; r < kLength; ++r)
                at.push_back(r < pads[std::size_t(b)] ? 1.0 : double(r - pads[std::size_t(b)]));
            ids.insert(ids.end(), at.begin(), at.end());
            const std::vector<double> good = ropeCos(inv, at, 1.0), bad = ropeCos(inv, range(0, kLength), 1.0);
            right.insert(right.end(), good.begin(), good.end());
            wrong.insert(wrong.end(), bad.begin(), bad.end());
        }
        const std::vector<std::int64_t> shape {batch, kLength, 1, kDim};
        const QString idsFile = file(npy({batch, kLength}, ids)), fixed = file(npy(shape, right)),
                      buggy = file(npy(shape, wrong));
        const QStringList atIds = ropeFlags(10000.0, kDim) + QStringList {u"--position-ids"_s, idsFile};
        const CliCheck::Checked good = CliCheck::checkFile(fixed, atIds);
        QVERIFY2(good.exit == 0 && good.verdict() == u"correct"_s, qPrintable(good.shown));
        const CliCheck::Checked bad = CliCheck::checkFile(buggy, atIds);
        QVERIFY2(CliCheck::named(bad.json, {u"rows-not-at-ids"_s}), qPrintable(bad.shown));

        // Against the fixed cache: [B, L, 1, D] is B slices of L rows (its dimension of 1 dropped),
        // not B·L one-row slices; slice 0 has no padding and agrees, the first padded one deviates.
        const CliCheck::Checked self = CliCheck::checkFile(fixed, {u"--expect-table"_s, fixed});
        QVERIFY2(self.verdict() == u"correct"_s, qPrintable(self.shown));
        const CliCheck::Checked table = CliCheck::checkFile(buggy, {u"--expect-table"_s, fixed});
        QVERIFY2(table.verdict() == u"mistake"_s && table.diagnosis().startsWith(u"slice [1]: "_s),
                 qPrintable(table.shown));
        // Slice 1's rows from its padding on hold positions 5 lower: 48-row slices, not one-row ones.
        QVERIFY2(table.json[u"position_offset"_s].toInt() == 5 && table.mistakes().contains(u"position-offset"_s),
                 qPrintable(table.shown));

        // Declared M-RoPE reads three rows of ids as t, h, w too: both readings said, refused.
        if (batch == 3) {
            const CliCheck::Checked both
                = CliCheck::checkFile(fixed,
                                      {u"--expect"_s, u"mrope"_s, u"--head-dim"_s, QString::number(kDim),
                                       u"--mrope-section"_s, u"8,12,12"_s, u"--position-ids"_s, idsFile});
            QVERIFY2(both.exit == 2 && both.shown.contains(u"read two ways"_s) && both.shown.contains(u"t, h, w"_s)
                         && both.shown.contains(u"[B, L]"_s),
                     qPrintable(both.shown));
        }
    }

    // A declared YaRN (attention factor 0.1 ln 32 + 1 = 1.34657) whose table is c times the declared one,
    // c the factor again (applied twice) or 0.8: attention-factor with both values; the declared table
    // correct.
    void declaredFactorTimesConstant_data()
    {
        QTest::addColumn<double>("times");
        QTest::newRow("applied twice") << 0.1 * std::log(32.0) + 1.0;
        QTest::newRow("times 0.8") << 0.8;
    }

    void declaredFactorTimesConstant()
    {
        QFETCH(double, times);
        constexpr int kDim = 64;
        const double mscale = 0.1 * std::log(32.0) + 1.0;
        const std::vector<double> inv = yarnInv(10000.0, kDim, 32.0, 2048.0, 32.0, 1.0);
        const QStringList flags
            = ropeFlags(10000.0, kDim) + QStringList {u"--rope-type"_s,        u"yarn"_s, u"--rope-factor"_s, u"32"_s,
                                                      u"--original-max-len"_s, u"2048"_s};
        const CliCheck::Checked good
            = CliCheck::checkFile(file(npy({200, kDim}, ropeCos(inv, range(0, 200), mscale))), flags);
        QVERIFY2(good.verdict() == u"correct"_s, qPrintable(good.shown));
        const CliCheck::Checked bad
            = CliCheck::checkFile(file(npy({200, kDim}, ropeCos(inv, range(0, 200), mscale * times))), flags);
        QVERIFY2(CliCheck::named(bad.json, {u"attention-factor"_s}), qPrintable(bad.shown));
        QVERIFY2(bad.diagnosis().contains(u"attention factor is "_s + QString::number(mscale * times, 'f', 3))
                     && bad.diagnosis().contains(u"1.34657 is declared"_s),
                 qPrintable(bad.shown));
    }

    // --expect-table: the reference (a learned-like random walk, no family's form) times c in every
    // cell is scaled, c named; the same with one cell changed is not.
    void tableTimesConstant()
    {
        constexpr std::int64_t kRows = 80, kCols = 32;
        std::mt19937 engine(56);
        std::normal_distribution<double> normal(0.0, 0.1);
        std::vector<double> ref(std::size_t(kRows * kCols));
        for (std::int64_t k = 0; k < kRows * kCols; ++k)
            ref[std::size_t(k)] = (k >= kCols ? ref[std::size_t(k - kCols)] : 0.5) + normal(engine);
        const QString reference = file(npy({kRows, kCols}, ref));
        for (const double c : {0.70625, 1.4852}) {
            std::vector<double> scaled = ref;
            for (double &v : scaled)
                v *= c;
            const CliCheck::Checked bad
                = CliCheck::checkFile(file(npy({kRows, kCols}, scaled)), {u"--expect-table"_s, reference});
            QVERIFY2(CliCheck::named(bad.json, {u"scaled"_s}), qPrintable(bad.shown));
            QVERIFY2(bad.diagnosis().contains(u"times %1 "_s.arg(c)), qPrintable(bad.shown));
            scaled[std::size_t(17 * kCols + 5)] += 0.25;
            const CliCheck::Checked other
                = CliCheck::checkFile(file(npy({kRows, kCols}, scaled)), {u"--expect-table"_s, reference});
            QVERIFY2(other.verdict() == u"mistake"_s && !other.mistakes().contains(u"scaled"_s),
                     qPrintable(other.shown));
        }
    }

    // A table that is a published form against a reference that is the same form times c (a
    // sinusoid at 1 / sqrt(d), ScaledSinusoidalEmbedding's start; RoPE's cos times an attention factor
    // 1.2): each file reads as its family, but the files differ by c in every cell, so never correct.
    void formAgainstItsScaledSelf()
    {
        constexpr int kRows = 256, kDim = 128;
        std::vector<double> pe;
        for (int p = 0; p < kRows; ++p)
            for (int c = 0; c < kDim; ++c) {
                const double angle = p / std::pow(10000.0, double(c - c % 2) / kDim);
                pe.push_back(c % 2 ? std::cos(angle) : std::sin(angle)); // the paper's interleaved layout
            }
        const std::vector<double> inv = plainInv(10000.0, 64);
        struct Pair
        {
            std::vector<double> table, reference;
            double c;
        };
        std::vector<double> peScaled = pe;
        for (double &v : peScaled)
            v /= std::sqrt(double(kDim));
        const std::vector<Pair> pairs {
            {pe, peScaled, std::sqrt(double(kDim))},
            {ropeCos(inv, range(0, kRows), 1.0), ropeCos(inv, range(0, kRows), 1.2), 1.0 / 1.2}};
        for (const Pair &pair : pairs) {
            const std::int64_t cols = std::int64_t(pair.table.size()) / kRows;
            const QString table = file(npy({kRows, cols}, pair.table)),
                          reference = file(npy({kRows, cols}, pair.reference));
            const CliCheck::Checked self = CliCheck::checkFile(table, {u"--expect-table"_s, table});
            QVERIFY2(self.verdict() == u"correct"_s, qPrintable(self.shown));
            const CliCheck::Checked bad = CliCheck::checkFile(table, {u"--expect-table"_s, reference});
            QVERIFY2(bad.verdict() == u"mistake"_s && CliCheck::named(bad.json, {u"scaled"_s}), qPrintable(bad.shown));
            QVERIFY2(bad.diagnosis().contains(u"times %1 "_s.arg(QString::number(pair.c, 'g', 6))),
                     qPrintable(bad.shown));
        }
    }

    // A decode step's cos [B, H, 1, D]: each batch row's one position (100, 57) broadcast over its 8
    // heads, the shape of Paddle's [B, L, 1, D]. Undeclared, its alike rows are no mistake (unknown);
    // at its positions it is correct.
    void decodeStepCacheIsNoSameRow()
    {
        constexpr int kHeads = 8, kDim = 64;
        const std::vector<double> inv = plainInv(10000.0, kDim);
        std::vector<double> cache;
        for (const double p : {100.0, 57.0})
            for (int h = 0; h < kHeads; ++h) {
                const std::vector<double> row = ropeCos(inv, {p}, 1.0);
                cache.insert(cache.end(), row.begin(), row.end());
            }
        const QString dump = file(npy({2, kHeads, 1, kDim}, cache));
        const CliCheck::Checked undeclared = CliCheck::checkFile(dump, {});
        QVERIFY2(undeclared.verdict() == u"unknown"_s && undeclared.mistakes().isEmpty()
                     && !undeclared.json[u"guessed_mistakes"_s].toArray().contains(u"same-row"_s)
                     && undeclared.diagnosis().contains(u"decode step"_s),
                 qPrintable(undeclared.shown));
        // A table of 8 rows that really repeats one row is still read so once declared.
        const CliCheck::Checked declared = CliCheck::checkFile(dump, ropeFlags(10000.0, kDim));
        QVERIFY2(declared.verdict() != u"correct"_s, qPrintable(declared.shown));
        // Batch 1, [1, H, 1, D]: one table of H rows once its dimensions of 1 drop, the same two readings.
        const QString one
            = file(npy({1, kHeads, 1, kDim}, std::vector<double>(cache.begin(), cache.begin() + kHeads * kDim)));
        const CliCheck::Checked step = CliCheck::checkFile(one, {});
        QVERIFY2(step.verdict() == u"unknown"_s && step.mistakes().isEmpty()
                     && step.diagnosis().contains(u"decode step"_s),
                 qPrintable(step.shown));
        QVERIFY2(CliCheck::checkFile(one, ropeFlags(10000.0, kDim)).verdict() != u"correct"_s, qPrintable(step.shown));
    }

    // [3, L] ids of a stack of 3 slices of L rows, nothing declared: each slice's own positions (rows off
    // their ids here) or M-RoPE's t, h, w of one sequence: unknown, both readings said; declared, the
    // slices' reading alone.
    void threeRowIdsReadTwoWays()
    {
        constexpr int kDim = 64;
        const std::vector<double> inv = plainInv(10000.0, kDim);
        // An image span of 2 x 2 at t 4: t repeats where h and w move.
        const std::vector<double> t {0, 1, 2, 3, 4, 4, 4, 4, 6, 7}, h {0, 1, 2, 3, 4, 4, 5, 5, 6, 7},
            w {0, 1, 2, 3, 4, 5, 4, 5, 6, 7};
        std::vector<double> stack, ids = t;
        for (int s = 0; s < 3; ++s) {
            const std::vector<double> rows = ropeCos(inv, h, 1.0);
            stack.insert(stack.end(), rows.begin(), rows.end());
        }
        ids.insert(ids.end(), h.begin(), h.end());
        ids.insert(ids.end(), w.begin(), w.end());
        const QString dump = file(npy({3, 10, kDim}, stack)), idsFile = file(npy({3, 10}, ids));
        const CliCheck::Checked undeclared = CliCheck::checkFile(dump, {u"--position-ids"_s, idsFile});
        QVERIFY2(undeclared.verdict() == u"unknown"_s && undeclared.mistakes().isEmpty()
                     && undeclared.diagnosis().contains(u"read two ways"_s)
                     && undeclared.diagnosis().contains(u"M-RoPE's t, h, w"_s),
                 qPrintable(undeclared.shown));
        const CliCheck::Checked declared
            = CliCheck::checkFile(dump, ropeFlags(10000.0, kDim) + QStringList {u"--position-ids"_s, idsFile});
        QVERIFY2(declared.verdict() == u"mistake"_s, qPrintable(declared.shown));
    }

    // A packed batch of three documents (rows 0..99, 100..139, 140..159): the reference at the pack's
    // ids, the table at 0..159 (the ids ignored, Megatron-LM#453), and the other way round.
    void packedRowsAtOtherPositions()
    {
        constexpr int kDim = 64;
        const std::vector<double> inv = plainInv(10000.0, kDim);
        std::vector<double> packed = range(0, 100);
        for (const std::int64_t length : {40, 20}) {
            const std::vector<double> next = range(0, length);
            packed.insert(packed.end(), next.begin(), next.end());
        }
        const QString atIds = file(npy({160, kDim}, ropeCos(inv, packed, 1.0)));
        const QString arange = file(npy({160, kDim}, ropeCos(inv, range(0, 160), 1.0)));
        const CliCheck::Checked self = CliCheck::checkFile(atIds, {u"--expect-table"_s, atIds});
        QVERIFY2(self.verdict() == u"correct"_s, qPrintable(self.shown));
        const CliCheck::Checked runOn = CliCheck::checkFile(arange, {u"--expect-table"_s, atIds});
        QVERIFY2(CliCheck::named(runOn.json, {u"position-offset"_s}), qPrintable(runOn.shown));
        QVERIFY2(runOn.diagnosis().contains(u"rows 100..139 hold positions 100 higher than the reference's rows there "
                                            "(the reference's rows 100..139 are the table's rows 0..39: the reference "
                                            "restarts there"_s)
                     && runOn.diagnosis().contains(u"rows 140..159 hold positions 140 higher"_s)
                     && runOn.diagnosis().contains(u"rows 0..99 agree"_s),
                 qPrintable(runOn.shown));
        const CliCheck::Checked restarted = CliCheck::checkFile(atIds, {u"--expect-table"_s, arange});
        QVERIFY2(restarted.verdict() == u"mistake"_s && !restarted.mistakes().isEmpty(), qPrintable(restarted.shown));
        // Rows that hold no row of the other table at all: no part of rows named (the reference's
        // reading may name their positions).
        std::vector<double> later = packed;
        for (std::size_t k = 100; k < later.size(); ++k)
            later[k] += 1000.0;
        const CliCheck::Checked none
            = CliCheck::checkFile(file(npy({160, kDim}, ropeCos(inv, later, 1.0))), {u"--expect-table"_s, arange});
        QVERIFY2(none.verdict() == u"mistake"_s && !none.diagnosis().startsWith(u"position-offset: "_s),
                 qPrintable(none.shown));
        // Rows of a constant changed to another constant hold no position: no rows moved named.
        std::vector<double> ones(std::size_t(160 * 4), 1.0), twos = ones;
        std::fill(twos.begin() + 50 * 4, twos.begin() + 90 * 4, 2.0);
        std::fill(ones.begin() + 120 * 4, ones.end(), 2.0);
        const CliCheck::Checked constant
            = CliCheck::checkFile(file(npy({160, 4}, twos)), {u"--expect-table"_s, file(npy({160, 4}, ones))});
        QVERIFY2(constant.verdict() == u"mistake"_s && !constant.mistakes().contains(u"position-offset"_s),
                 qPrintable(constant.shown));
    }

    // A table linear in a position times c against --expect-table's reference: RoPE's angles p w
    // (the positions times c, or the frequencies: linear scaling with factor 1 / c) and a bias
    // -m |i - j| times c (the distances or the slope): positions-scaled
    // with both values, never "the positions and frequencies are the reference's". An amplitude
    // table (RoPE's cos) times c is no such scale.
    void linearTablesTimesConstant()
    {
        constexpr std::int64_t kRows = 48, kPairs = 32;
        const std::vector<double> inv = plainInv(10000.0, 2 * kPairs);
        std::vector<double> angles, bias;
        for (std::int64_t p = 0; p < kRows; ++p) {
            for (std::int64_t i = 0; i < kPairs; ++i)
                angles.push_back(double(p) * inv[std::size_t(i)]);
            for (std::int64_t j = 0; j < kRows; ++j)
                bias.push_back(-0.3 * double(std::abs(p - j)));
        }
        struct Linear
        {
            std::vector<std::int64_t> shape;
            std::vector<double> values;
            QString scaled; // what c multiplies
        };
        const std::vector<Linear> linear {{{kRows, kPairs}, angles, u"the positions times"_s},
                                          {{kRows, kRows}, bias, u"the distances times"_s}};
        for (const Linear &l : linear) {
            const QString reference = file(npy(l.shape, l.values));
            for (const double c : {0.25, 3.0}) {
                std::vector<double> times = l.values;
                for (double &v : times)
                    v *= c;
                const CliCheck::Checked bad
                    = CliCheck::checkFile(file(npy(l.shape, times)), {u"--expect-table"_s, reference});
                QVERIFY2(bad.verdict() == u"mistake"_s && bad.mistakes() == QJsonArray {u"positions-scaled"_s},
                         qPrintable(bad.shown));
                const QString factor = QString::number(1.0 / c, 'g', 6);
                const bool distance = l.scaled.contains(u"distances"_s); // no RoPE factor said of a bias
                QVERIFY2(bad.diagnosis().contains(u"%1 %2 (1 / %3"_s.arg(l.scaled, QString::number(c), factor))
                             && bad.diagnosis().contains(u"linear scaling with factor %1"_s.arg(factor)) != distance
                             && !bad.diagnosis().contains(u"frequencies are the reference's"_s),
                         qPrintable(bad.shown));
            }
        }
        const std::vector<double> cos = ropeCos(inv, range(0, kRows), 1.0), half = ropeCos(inv, range(0, kRows), 0.5);
        const CliCheck::Checked amplitude = CliCheck::checkFile(
            file(npy({kRows, 2 * kPairs}, half)), {u"--expect-table"_s, file(npy({kRows, 2 * kPairs}, cos))});
        QVERIFY2(amplitude.verdict() == u"mistake"_s && !amplitude.mistakes().contains(u"positions-scaled"_s),
                 qPrintable(amplitude.shown));
    }

    // --pe-scale typed to 3 digits (0.0884 for 128^-0.5) declares the amplitude it is the rounding of,
    // the measured one said to float32's digits; one unit of its last digit off (0.0883) is scaled. On
    // a table of another family (RoPE's cos) or with --apply it is refused in one line, exit 2.
    void peScaleAsTypedAndWhereItApplies()
    {
        constexpr int kRows = 64, kDim = 128;
        std::vector<double> pe;
        for (int p = 0; p < kRows; ++p)
            for (int c = 0; c < kDim; ++c) {
                const double angle = p / std::pow(10000.0, double(c - c % 2) / kDim);
                pe.push_back((c % 2 ? std::cos(angle) : std::sin(angle)) / std::sqrt(double(kDim)));
            }
        const QString scaled = file(npy({kRows, kDim}, pe));
        const QStringList expect {u"--expect"_s, u"sinusoidal"_s, u"--d-model"_s, QString::number(kDim)};
        for (const QStringList &declared : {QStringList(), expect}) {
            const CliCheck::Checked typed
                = CliCheck::checkFile(scaled, declared + QStringList {u"--pe-scale"_s, u"0.0884"_s});
            QVERIFY2(typed.verdict() == u"correct"_s, qPrintable(typed.shown));
            const CliCheck::Checked off
                = CliCheck::checkFile(scaled, declared + QStringList {u"--pe-scale"_s, u"0.0883"_s});
            QVERIFY2(CliCheck::named(off.json, {u"scaled"_s}), qPrintable(off.shown));
        }
        // Fewer than 3 significant digits are the value itself: a table 1.4 times the sinusoid is no
        // "1" (within 0.5 it would have been), and is "1.4".
        std::vector<double> wide = pe;
        for (double &v : wide)
            v *= 1.4 * std::sqrt(double(kDim));
        const QString wider = file(npy({kRows, kDim}, wide));
        for (const QStringList &declared : {QStringList(), expect}) {
            const CliCheck::Checked one = CliCheck::checkFile(wider, declared + QStringList {u"--pe-scale"_s, u"1"_s});
            QVERIFY2(one.verdict() == u"mistake"_s && CliCheck::named(one.json, {u"scaled"_s}), qPrintable(one.shown));
            const CliCheck::Checked exact
                = CliCheck::checkFile(wider, declared + QStringList {u"--pe-scale"_s, u"1.4"_s});
            QVERIFY2(exact.verdict() == u"correct"_s, qPrintable(exact.shown));
        }
        const CliRun::Run text = CliRun::posenc({u"check"_s, scaled, u"--pe-scale"_s, u"0.0884"_s});
        QVERIFY2(text.out.contains(u"--pe-scale 0.0884 declares the amplitude to its last digit (within 5e-5): the "
                                   "table's, measured to its precision, is %1"_s.arg(
                                       QString::number(1.0 / std::sqrt(double(kDim)), 'g', 7))),
                 qPrintable(text.out));
        const QString rope = file(npy({kRows, kDim}, ropeCos(plainInv(10000.0, kDim), range(0, kRows), 1.0)));
        const CliRun::Run refused = CliRun::posenc({u"check"_s, rope, u"--pe-scale"_s, u"2"_s});
        QVERIFY2(refused.exitCode == 2 && refused.out.isEmpty() && refused.err.count(u'\n') == 1
                     && refused.err.contains(u"--pe-scale: the amplitude c of a sinusoidal table"_s)
                     && refused.err.contains(u"rope-cos"_s),
                 qPrintable(refused.out + refused.err));
        const CliRun::Run applied = CliRun::posenc({u"check"_s, u"--apply"_s, rope, rope, u"--pe-scale"_s, u"2"_s});
        QVERIFY2(applied.exitCode == 2 && applied.err.contains(u"--pe-scale"_s), qPrintable(applied.err));
        const CliRun::Run table
            = CliRun::posenc({u"check"_s, scaled, u"--expect-table"_s, scaled, u"--pe-scale"_s, u"1"_s});
        QVERIFY2(table.exitCode == 2 && table.err.count(u'\n') == 1 && table.err.contains(u"--expect-table"_s),
                 qPrintable(table.err));
    }

    // An array with a dimension of 0 is refused whatever its shape reads as (exit 3, one line); a
    // decode step's one cos row times 1.2 against its reference is scaled (an amplitude), not
    // positions-scaled, which a row of rates (an --expect-table vector) alone is.
    void noCellsAndOneRow()
    {
        const QString none = file(npy({0, 64, 4, 4}, std::vector<double>()));
        const CliRun::Run refused = CliRun::posenc({u"check"_s, none});
        QVERIFY2(refused.exitCode == 3 && refused.out.isEmpty() && refused.err.count(u'\n') == 1
                     && refused.err.contains(u"no cells"_s),
                 qPrintable(refused.out + refused.err));
        std::vector<double> row, wider;
        for (int c = 0; c < 64; ++c) {
            row.push_back(std::cos(37.0 * std::pow(10000.0, -2.0 * double(c % 32) / 64.0)));
            wider.push_back(1.2 * row.back());
        }
        const QString reference = file(npy({1, 1, 1, 64}, row));
        const CliCheck::Checked c
            = CliCheck::checkFile(file(npy({1, 1, 1, 64}, wider)), {u"--expect-table"_s, reference});
        QVERIFY2(c.verdict() == u"mistake"_s && CliCheck::named(c.json, {u"scaled"_s})
                     && !CliCheck::named(c.json, {u"positions-scaled"_s}),
                 qPrintable(c.shown));
    }

    // A flattened DETR map is the map: correct under --grid as its [C, H, W] is, a mistake against
    // another declared form; an --expect-table reference with +inf or NaN refused (exit 3), the
    // file and the cell said in one line.
    void flattenedMapAndNonFiniteReference()
    {
        constexpr std::int64_t kC = 64, kH = 6, kW = 10;
        const std::vector<float> map = detrref::map(kC, kH, kW, detrref::Normalize::Detr);
        std::vector<double> flat(map.size());
        for (std::int64_t c = 0; c < kC; ++c)
            for (std::int64_t p = 0; p < kH * kW; ++p)
                flat[std::size_t(p * kC + c)] = map[std::size_t(c * kH * kW + p)];
        const QString table = file(npy({kH * kW, kC}, flat));
        const QStringList grid {u"--expect"_s, u"sincos-2d"_s, u"--grid"_s, u"%1,%2"_s.arg(kH).arg(kW)};
        const CliCheck::Checked read = CliCheck::checkFile(table, grid);
        QVERIFY2(read.verdict() == u"correct"_s && read.shown.contains(u"DETR"_s), qPrintable(read.shown));
        const CliCheck::Checked other
            = CliCheck::checkFile(table, grid + QStringList {u"--map-form"_s, u"deformable-detr"_s});
        QVERIFY2(other.verdict() == u"mistake"_s && CliCheck::named(other.json, {u"map-normalization"_s}),
                 qPrintable(other.shown));
        // Held to a declared form over another grid, or at a temperature no published form has, the
        // map is never the declared reference.
        const CliCheck::Checked wrongGrid = CliCheck::checkFile(
            table, {u"--expect"_s, u"sincos-2d"_s, u"--grid"_s, u"%1,%2"_s.arg(kW).arg(kH), u"--map-form"_s,
                    u"detr-normalized"_s});
        QVERIFY2(wrongGrid.verdict() == u"mistake"_s, qPrintable(wrongGrid.shown));
        const std::vector<float> hot = detrref::map(kC, kH, kW, detrref::Normalize::Detr, 100.0);
        std::vector<double> hotFlat(hot.size());
        for (std::int64_t c = 0; c < kC; ++c)
            for (std::int64_t p = 0; p < kH * kW; ++p)
                hotFlat[std::size_t(p * kC + c)] = hot[std::size_t(c * kH * kW + p)];
        const CliCheck::Checked unpublished = CliCheck::checkFile(file(npy({kH * kW, kC}, hotFlat)), grid);
        QVERIFY2(unpublished.verdict() != u"correct"_s && unpublished.verdict() != u"mistake"_s,
                 qPrintable(unpublished.shown));
        for (const double bad : {double(INFINITY), double(NAN)}) {
            std::vector<double> reference = flat;
            reference[std::size_t(3 * kC + 5)] = bad;
            const CliRun::Run refused
                = CliRun::posenc({u"check"_s, table, u"--expect-table"_s, file(npy({kH * kW, kC}, reference))});
            QVERIFY2(refused.exitCode == 3 && refused.out.isEmpty() && refused.err.count(u'\n') == 1
                         && refused.err.contains(u"row 3, column 5 holds"_s),
                     qPrintable(refused.out + refused.err));
        }
    }

    // A complex rotary cache dumped as torch.view_as_real(freqs_cis) [N, dim / 2, 2] (recorded from the
    // reference code,
    // tests/data/decodebias/make_decode_fixtures.py): SAM 2's compute_axial_cis (facebookresearch/sam2,
    // sam2/modeling/position_encoding.py) as 2-D RoPE's axial cos | sin, Meta Llama's
    // precompute_freqs_cis as RoPE's; never a mistake, the declared reference's when declared; t_x and
    // t_y exchanged (grid-axes-swapped), another theta (rope-theta) named.
    void complexCacheDumps_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("mistake"); // empty: correct declared, never a mistake undeclared
        const QStringList axial {u"--expect"_s,   u"rope-2d"_s, u"--rope-2d-style"_s, u"axial"_s,
                                 u"--head-dim"_s, u"64"_s,      u"--grid"_s,          u"16,16"_s};
        QTest::newRow("sam2") << u"sam2-axial-cis"_s << axial << QString();
        QTest::newRow("sam2 swapped") << u"sam2-axial-cis-swapped"_s << axial << u"grid-axes-swapped"_s;
        QTest::newRow("llama") << u"llama-freqs-cis"_s << ropeFlags(10000, 128) << QString();
        QTest::newRow("llama theta") << u"llama-freqs-cis-theta"_s << ropeFlags(10000, 128) << u"rope-theta"_s;
    }
    void complexCacheDumps()
    {
        QFETCH(QString, name);
        QFETCH(QStringList, flags);
        QFETCH(QString, mistake);
        const QString path = QFINDTESTDATA(u"../data/decodebias/%1.npy"_s.arg(name));
        QVERIFY(!path.isEmpty());
        const CliCheck::Checked declared = CliCheck::checkFile(path, flags);
        if (mistake.isEmpty()) {
            QVERIFY2(declared.verdict() == u"correct"_s, qPrintable(declared.shown));
            // Undeclared, SAM 2's theta and head read as 2-D RoPE's axial form, which no preset ships: a
            // variant; Llama's cache is also diffusers' flipped timestep embedding, correct either way.
            const CliCheck::Checked alone = CliCheck::checkFile(path, {});
            const bool sam2 = name.startsWith(u"sam2"_s);
            QVERIFY2(alone.verdict() == (sam2 ? u"variant"_s : u"correct"_s)
                         && (!sam2 || alone.json[u"family"_s].toString() == u"rope-2d"_s),
                     qPrintable(alone.shown));
        } else {
            QVERIFY2(CliCheck::named(declared.json, {mistake}), qPrintable(declared.shown));
        }
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliDumpsNamed)
} // namespace tst_clidumpsnamed
#include "tst_clidumpsnamed.moc"
