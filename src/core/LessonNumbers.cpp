#include "LessonNumbers.h"

#include "ClosedForms.h"
#include "NumberText.h"
#include "RelativeLessonNumbers.h"

#include "DropoutMask.h"
#include "Engine.h"
#include "core/rope/RopeFrequencies.h"
#include "core/sinusoidal/Frequencies.h"

#include <QRegularExpression>

#include <bit>
#include <cmath>
#include <functional>
#include <numbers>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::LessonNumbers {

namespace {

using Value = std::function<Number(const Params &)>;

struct Entry
{
    QString key;
    QString description;
    Value value;
};

Number real(double v)
{
    return {v, NumberText::prose(v)};
}

Number integer(std::int64_t v)
{
    return {double(v), v < 0 ? u"−"_s + QString::number(-v) : QString::number(v)};
}

// A count of cells: whole below 10^7, in powers of ten beyond.
Number count(double v)
{
    return v < 1e7 ? integer(std::int64_t(v)) : real(v);
}

Number none(const QString &why)
{
    return {std::nullopt, why};
}

double d(const Params &p)
{
    return double(p.dModel);
}

double cells(const Params &p)
{
    return double(p.maxLen) * double(p.dModel);
}

// k of concat, whatever the composition now: what concatenating would give the PE.
std::int64_t concatColumns(const Params &p)
{
    Params concat = p;
    concat.compose = Compose::Concat;
    return concat.peColumns();
}

std::optional<double> sigma(const Params &p)
{
    return p.embeddings ? std::nullopt : std::optional(p.sigma());
}

const QString kLoaded = u"not a closed form here (the embeddings come from a file; the figures measure it)"_s;

// E||s E_p||^2 for random embeddings; none for a loaded matrix.
std::optional<double> embeddingNormSquared(const Params &p)
{
    const auto s = sigma(p);
    return s ? std::optional(ClosedForms::embeddingNormSquared(p.scale(), *s, p.embeddingColumns())) : std::nullopt;
}

double peNormSquared(const Params &p)
{
    return ClosedForms::peNormSquared(p.peColumns());
}

double angular(const Params &p, std::int64_t pair)
{
    return Frequencies::angular(pair, p.peColumns(), p.sinusoidal.base);
}

std::int64_t pairCount(const Params &p)
{
    return Frequencies::pairCount(p.peColumns());
}

// The first pair whose wavelength 2 pi / w_i exceeds L: from there on a column does not
// complete one period over the table. pairCount() when none does.
std::int64_t firstSlowPair(const Params &p)
{
    const std::int64_t pairs = pairCount(p);
    for (std::int64_t i = 0; i < pairs; ++i) {
        if (Frequencies::wavelength(i, p.peColumns(), p.sinusoidal.base) > double(p.maxLen))
            return i;
    }
    return pairs;
}

// Mean and standard deviation over p = 0 .. L-1 of column `column` of the PE table, exact angles:
// sum_p e^{i p w} = e^{i (L-1) w / 2} sin(L w / 2) / sin(w / 2), and sin^2, cos^2 = (1 -+ cos 2pw) / 2.
std::pair<double, double> columnMoments(const Params &p, std::int64_t column)
{
    const ColumnRole role = Frequencies::role(column, p.peColumns(), p.sinusoidal.layout);
    const double w = angular(p, role.pair);
    const double n = double(p.maxLen);
    const auto dirichlet = [n](double x) { return std::sin(n * x / 2.0) / (n * std::sin(x / 2.0)); };
    const double half = (n - 1.0) * w / 2.0;
    const double mean = (role.isCos ? std::cos(half) : std::sin(half)) * dirichlet(w);
    const double meanCos2 = std::cos((n - 1.0) * w) * dirichlet(2.0 * w);
    const double meanSquare = role.isCos ? 0.5 + meanCos2 / 2.0 : 0.5 - meanCos2 / 2.0;
    return {mean, std::sqrt(std::max(0.0, meanSquare - mean * mean))};
}

// S(k) = PE_p . PE_{p+k} over the whole sin/cos pairs: sum_i cos(k w_i), whatever p.
double similarity(const Params &p, double offset)
{
    const std::int64_t pairs = p.peColumns() / 2;
    double sum = 0.0;
    for (std::int64_t i = 0; i < pairs; ++i)
        sum += std::cos(offset * angular(p, i));
    return sum;
}

// The float32 angle float(p) * float(w_0) is off by at most p w_0 2^-23, and the stored value by
// 2^-25 more (docs/ARCHITECTURE.md, The mathematics; the precision figure's bound).
double float32Bound(double position)
{
    return position * std::ldexp(1.0, -23) + std::ldexp(1.0, -25);
}

Number keepFactor(const Params &p)
{
    if (p.dropout >= 1.0)
        return none(u"none (p = 1 zeroes every cell and rescales nothing)"_s);
    return real(1.0 / (1.0 - p.dropout));
}

QString dropoutNote(const Params &p)
{
    if (!p.training)
        return u"Evaluation mode now: dropout is off, and Y = X (masked-fill still zeroes its padding rows)."_s;
    if (p.dropout <= 0.0)
        return u"p = 0 now: nothing is dropped, and Y = X."_s;
    if (p.dropout >= 1.0)
        return u"p = 1 now: every cell that dropout reaches is zeroed."_s;
    return u"Training, p = %1: each cell is zeroed with probability %1, the others multiplied by %2."_s.arg(
        NumberText::prose(p.dropout), NumberText::prose(1.0 / (1.0 - p.dropout)));
}

QString specialList(const Params &p)
{
    QStringList rows;
    for (const std::int64_t row : p.specialRows())
        rows.append(QString::number(row));
    return rows.isEmpty() ? u"none"_s : rows.join(u", "_s);
}

// The cells of the special rows that this seed's mask zeroes under dropout on the sum (the
// masked-fill snippet's rule for them): the count the figures show beside its mean p·d per row.
// O(d) per special row, the mask's row kernel.
Number specialDropped(const Params &p)
{
    if (!p.training || p.dropout <= 0.0)
        return integer(0);
    Params sum = p;
    sum.dropoutMode = DropoutMode::Sum;
    const DropoutMask mask(sum);
    std::vector<std::uint64_t> bits(static_cast<std::size_t>((p.dModel + 63) / 64));
    std::int64_t dropped = 0;
    for (const std::int64_t row : p.specialRows()) {
        mask.keepBits(row, 0, p.dModel, bits.data());
        std::int64_t kept = 0;
        for (const std::uint64_t word : bits)
            kept += std::popcount(word);
        dropped += p.dModel - kept;
    }
    return count(double(dropped));
}

// Tables small enough that the nearest PE row of every row of Y is found on the GUI thread:
// L·L·d multiplications at most (~10 ms).
constexpr double kRecoveryWork = double(1 << 24);

// How many positions q keep their position through dropout: PE_q is the PE row with the largest
// dot product with the PE's part of Y_q, M ⊙ PE_q / (1 − p) (its PE columns in concat), at
// dropout probability `dropout`. The PE's part alone: what dropout leaves of the position, apart
// from the embedding added to it.
Number recovered(const Params &p, double dropout)
{
    if (double(p.maxLen) * double(p.maxLen) * d(p) > kRecoveryWork)
        return none(u"not computed past L·L·d = 2²⁴ multiplications"_s);
    if (dropout >= 1.0)
        return none(u"nothing left of Y at p = 1"_s);
    Params at = p;
    at.dropout = dropout;
    at.training = true;
    // Dropout on the sum, of the PE alone (s·E = 0): the same mask.
    at.dropoutMode = DropoutMode::Sum;
    at.scaleKind = ScaleKind::Custom;
    at.customScale = 0.0;
    const Engine engine(at);
    const std::int64_t k = at.peColumns();
    RowMatrixXf y(at.maxLen, at.dModel), pe(at.maxLen, k);
    engine.computeBlock(Quantity::Output, {0, at.maxLen, 0, at.dModel}, y);
    engine.computeBlock(Quantity::Pe, {0, at.maxLen, 0, k}, pe);
    const Eigen::MatrixXd scores = y.rightCols(k).cast<double>() * pe.cast<double>().transpose();
    std::int64_t found = 0;
    for (std::int64_t q = 0; q < at.maxLen; ++q) {
        Eigen::Index best = 0;
        scores.row(q).maxCoeff(&best);
        found += best == q ? 1 : 0;
    }
    return integer(found);
}

// The positions the mean |cos| between s·E_q and PE_q is taken over: every one up to 4096, the
// first 4096 past it (a few milliseconds at d 512, on every change of the controls).
std::int64_t cosineRows(const Params &p)
{
    return std::min<std::int64_t>(p.maxLen, 4096);
}

// The mean |cos| between s·E_q and PE_q over cosineRows: how far from parallel a token's
// embedding and its position's code are (concat: E's and the PE's columns differ, so the sum's d
// columns are compared).
Number embeddingPeCosine(const Params &p)
{
    Params sum = p;
    sum.compose = Compose::Sum;
    sum.peDims.reset();
    const Engine engine(sum);
    const std::int64_t rows = cosineRows(p);
    RowMatrixXf e(rows, p.dModel), pe(rows, p.dModel);
    if (engine.check(Quantity::Embedding, {0, rows, 0, p.dModel}))
        return none(u"not computed: the embeddings cannot be read here"_s);
    engine.computeBlock(Quantity::Embedding, {0, rows, 0, p.dModel}, e);
    engine.computeBlock(Quantity::Pe, {0, rows, 0, p.dModel}, pe);
    double total = 0.0;
    for (std::int64_t q = 0; q < rows; ++q) {
        const double norms = e.row(q).cast<double>().norm() * pe.row(q).cast<double>().norm();
        total += norms > 0.0 ? std::abs(e.row(q).cast<double>().dot(pe.row(q).cast<double>())) / norms : 0.0;
    }
    return real(total / double(rows));
}

// --- RoPE (docs/ARCHITECTURE.md, Encoding families) ----------------------------------------------

const QString kNotRope = u"not here: the encoding is not rope"_s;

bool isRope(const Params &p)
{
    return p.encoding == Encoding::Rope;
}

// The fixed head vectors the RoPE lessons rotate: q_j = sin(j + 1), k_j = cos(2j + 1).
std::vector<double> ropeVector(const Params &p, bool query)
{
    std::vector<double> v(static_cast<std::size_t>(p.rope.headDim));
    for (std::size_t j = 0; j < v.size(); ++j)
        v[j] = query ? std::sin(double(j) + 1.0) : std::cos(2.0 * double(j) + 1.0);
    return v;
}

// R(position) x in `layout`, cos and sin times the attention factor as HF's tables hold them:
// pair i's columns (i, i + h) in the half layout, (2i, 2i + 1) interleaved; the rest pass.
std::vector<double> ropeRotated(const std::vector<double> &x, double position, const RopeFrequencies::Table &table,
                                RopeLayout layout)
{
    std::vector<double> out = x;
    const std::size_t h = table.inv.size();
    for (std::size_t i = 0; i < h; ++i) {
        const std::size_t a = layout == RopeLayout::Half ? i : 2 * i;
        const std::size_t b = layout == RopeLayout::Half ? i + h : 2 * i + 1;
        const double c = std::cos(position * table.inv[i]) * table.attentionFactor;
        const double s = std::sin(position * table.inv[i]) * table.attentionFactor;
        out[a] = x[a] * c - x[b] * s;
        out[b] = x[b] * c + x[a] * s;
    }
    return out;
}

double ropeDot(const std::vector<double> &a, const std::vector<double> &b)
{
    double sum = 0.0;
    for (std::size_t j = 0; j < a.size(); ++j)
        sum += a[j] * b[j];
    return sum;
}

// <R(m) q, R(n) k> for the lessons' q and k, in `layout`.
Number ropeScore(const Params &p, double m, double n, RopeLayout layout)
{
    if (!isRope(p))
        return none(kNotRope);
    const RopeFrequencies::Table table = RopeFrequencies::table(p);
    return real(ropeDot(ropeRotated(ropeVector(p, true), m, table, layout),
                        ropeRotated(ropeVector(p, false), n, table, layout)));
}

RopeLayout otherLayout(RopeLayout layout)
{
    return layout == RopeLayout::Half ? RopeLayout::Interleaved : RopeLayout::Half;
}

// <q, R(k) q> / |q|^2 for q all ones over head_dim: (2 sum_i cos(k theta_i) + unrotated) / head_dim.
Number ropeOnes(const Params &p, double k)
{
    if (!isRope(p))
        return none(kNotRope);
    const RopeFrequencies::Table table = RopeFrequencies::table(p);
    double sum = double(p.rope.headDim) - 2.0 * double(table.inv.size());
    for (const double theta : table.inv)
        sum += 2.0 * std::cos(k * theta);
    return real(sum / double(p.rope.headDim));
}

// RoFormer's bound (1/h) sum_{j=1..h} |S_j|, S_j = sum_{i<j} e^{i k theta_i}.
Number ropeBound(const Params &p, double k)
{
    if (!isRope(p))
        return none(kNotRope);
    const RopeFrequencies::Table table = RopeFrequencies::table(p);
    double re = 0.0, im = 0.0, sum = 0.0;
    for (const double theta : table.inv) {
        re += std::cos(k * theta);
        im += std::sin(k * theta);
        sum += std::hypot(re, im);
    }
    return table.inv.empty() ? real(0.0) : real(sum / double(table.inv.size()));
}

// The wavelength 2 pi / theta_i of the first or the last pair that turns, after or before scaling.
Number ropeWavelength(const Params &p, bool last, bool scaled)
{
    if (!isRope(p))
        return none(kNotRope);
    const RopeFrequencies::Table table = RopeFrequencies::table(p);
    const std::vector<double> &inv = scaled ? table.inv : table.invBefore;
    std::size_t i = 0;
    if (last) {
        i = inv.size();
        while (i > 0 && !(inv[i - 1] > 0.0))
            --i;
        if (i == 0)
            return none(u"no pair turns"_s);
        --i;
    }
    return real(2.0 * std::numbers::pi / inv[i]);
}

// A count of RoPE's description that only some types have.
Number ropeCount(const Params &p, std::optional<std::int64_t> RopeFrequencies::Description::*member)
{
    if (!isRope(p))
        return none(kNotRope);
    const auto value = RopeFrequencies::describe(p).*member;
    return value ? integer(*value) : none(u"only llama3 and yarn sort the pairs into bands"_s);
}

// NTK's (dynamic) raised base for these parameters: theta (f seq / L0 - (f - 1))^(r / (r - 2)),
// seq = max(L, L0).
Number ropeDynamicBase(const Params &p)
{
    if (!isRope(p))
        return none(kNotRope);
    if (!p.rope.factor || !p.rope.originalMaxLen)
        return none(u"not here: it needs a factor and an original length"_s);
    const double r = double(RopeFrequencies::rotaryDim(p.rope));
    if (r < 4.0)
        return none(u"not here: dynamic needs a rotary dim of 4 or more"_s);
    const double f = *p.rope.factor;
    const double original = double(*p.rope.originalMaxLen);
    const double seq = std::max(double(p.maxLen), original);
    return real(p.rope.theta * std::pow(f * seq / original - (f - 1.0), r / (r - 2.0)));
}

Number gridRatio(const Params &p, bool sqrtScale, bool scaledSigma)
{
    // sqrt(s^2 sigma^2 d / (d/2)) = s sigma sqrt(2)
    const double s = sqrtScale ? std::sqrt(d(p)) : 1.0;
    const double sg = scaledSigma ? 1.0 / std::sqrt(d(p)) : 1.0;
    return real(s * sg * std::numbers::sqrt2);
}

const QList<Entry> &entries()
{
    static const QList<Entry> table = {
        {u"d"_s, u"d_model"_s, [](const Params &p) { return integer(p.dModel); }},
        {u"L"_s, u"max_len: positions 0 .. L − 1"_s, [](const Params &p) { return integer(p.maxLen); }},
        {u"p"_s, u"the dropout probability"_s, [](const Params &p) { return real(p.dropout); }},
        {u"base"_s, u"the base b of w_i = b^(−2i/d)"_s, [](const Params &p) { return real(p.sinusoidal.base); }},
        {u"s"_s, u"the embedding scale s"_s, [](const Params &p) { return real(p.scale()); }},
        {u"sigma"_s, u"the standard deviation σ of the random embeddings"_s,
         [](const Params &p) { return sigma(p) ? real(*sigma(p)) : none(kLoaded); }},
        {u"k"_s, u"the PE's columns: d in sum, the last k in concat"_s,
         [](const Params &p) { return integer(p.peColumns()); }},
        {u"d_e"_s, u"the embedding's columns: d in sum, d − k in concat"_s,
         [](const Params &p) { return integer(p.embeddingColumns()); }},
        {u"concat_k"_s, u"the PE's columns in concat: pe_dims, d/2 unless given"_s,
         [](const Params &p) { return integer(concatColumns(p)); }},
        {u"concat_d_e"_s, u"the embedding's columns in concat: d − pe_dims"_s,
         [](const Params &p) { return integer(p.dModel - concatColumns(p)); }},
        {u"sqrt_d"_s, u"√d"_s, [](const Params &p) { return real(std::sqrt(d(p))); }},
        {u"inv_sqrt_d"_s, u"d^(−1/2)"_s, [](const Params &p) { return real(1.0 / std::sqrt(d(p))); }},
        {u"seq_len"_s, u"the tokens of the sequence; rows from seq_len on are padding"_s,
         [](const Params &p) { return integer(p.sequenceLength()); }},
        {u"padding_rows"_s, u"L − seq_len"_s, [](const Params &p) { return integer(p.maxLen - p.sequenceLength()); }},
        {u"special"_s, u"the rows of the special tokens ([CLS], [SEP]) within the sequence"_s,
         [](const Params &p) {
             return Number {double(p.specialRows().size()), specialList(p)};
         }},
        {u"special_rows"_s, u"how many rows are special"_s,
         [](const Params &p) { return integer(std::int64_t(p.specialRows().size())); }},
        {u"keep"_s, u"1 − p: the probability that a cell is kept"_s,
         [](const Params &p) { return real(1.0 - p.dropout); }},
        {u"keep_factor"_s, u"1/(1 − p): the factor of the kept cells"_s, keepFactor},
        {u"cells"_s, u"L·d: the cells of X"_s, [](const Params &p) { return count(cells(p)); }},
        {u"dropped_mean"_s, u"p·L·d: the cells dropout zeroes, on average"_s,
         [](const Params &p) { return real(p.dropout * cells(p)); }},
        {u"dropped_std"_s, u"√(L·d·p(1 − p)): its standard deviation (binomial)"_s,
         [](const Params &p) { return real(std::sqrt(cells(p) * p.dropout * (1.0 - p.dropout))); }},
        {u"dropped_fraction_std"_s, u"√(p(1 − p)/(L·d)): the standard deviation of the fraction dropped"_s,
         [](const Params &p) { return real(std::sqrt(p.dropout * (1.0 - p.dropout) / cells(p))); }},
        {u"row_dropped_mean"_s, u"p·d: the cells of one row dropout zeroes, on average"_s,
         [](const Params &p) { return real(p.dropout * d(p)); }},
        {u"row_dropped_std"_s, u"√(d·p(1 − p))"_s,
         [](const Params &p) { return real(std::sqrt(d(p) * p.dropout * (1.0 - p.dropout))); }},
        {u"row_intact"_s, u"(1 − p)^d: the chance that a row loses none of its d cells"_s,
         [](const Params &p) { return real(std::pow(1.0 - p.dropout, d(p))); }},
        {u"special_cells"_s, u"the cells of the special rows: their count times d"_s,
         [](const Params &p) { return count(d(p) * double(p.specialRows().size())); }},
        {u"special_dropped_mean"_s, u"p·d per special row, times the special rows: their cells zeroed, on average"_s,
         [](const Params &p) { return real(p.dropout * d(p) * double(p.specialRows().size())); }},
        {u"special_dropped"_s, u"the cells of the special rows this seed's mask zeroes under dropout on the sum"_s,
         specialDropped},
        {u"dropout_note"_s, u"a sentence on what dropout does at these parameters"_s,
         [](const Params &p) {
             return Number {std::nullopt, dropoutNote(p)};
         }},
        {u"pe_norm_sq"_s, u"||PE_p||² = k/2"_s, [](const Params &p) { return real(peNormSquared(p)); }},
        {u"pe_norm"_s, u"||PE_p|| = √(k/2)"_s, [](const Params &p) { return real(std::sqrt(peNormSquared(p))); }},
        {u"emb_norm_sq"_s, u"E||s·E_p||² = s²σ²d_e"_s,
         [](const Params &p) { return embeddingNormSquared(p) ? real(*embeddingNormSquared(p)) : none(kLoaded); }},
        {u"emb_norm"_s, u"√(s²σ²d_e)"_s,
         [](const Params &p) {
             return embeddingNormSquared(p) ? real(std::sqrt(*embeddingNormSquared(p))) : none(kLoaded);
         }},
        {u"ratio"_s, u"||s·E_p|| / ||PE_p|| = √(s²σ²d_e / (k/2))"_s,
         [](const Params &p) {
             return embeddingNormSquared(p) ? real(std::sqrt(*embeddingNormSquared(p) / peNormSquared(p)))
                                            : none(kLoaded);
         }},
        {u"ratio_1_1"_s, u"the ratio at s = 1, σ = 1: √2"_s,
         [](const Params &p) { return gridRatio(p, false, false); }},
        {u"ratio_sqrtd_1"_s, u"the ratio at s = √d, σ = 1: √(2d)"_s,
         [](const Params &p) { return gridRatio(p, true, false); }},
        {u"ratio_1_invsqrtd"_s, u"the ratio at s = 1, σ = d^(−1/2): √(2/d)"_s,
         [](const Params &p) { return gridRatio(p, false, true); }},
        {u"ratio_sqrtd_invsqrtd"_s, u"the ratio at s = √d, σ = d^(−1/2): √2"_s,
         [](const Params &p) { return gridRatio(p, true, true); }},
        {u"emb_std"_s, u"s·σ: the spread of every column of s·E"_s,
         [](const Params &p) { return sigma(p) ? real(p.scale() * *sigma(p)) : none(kLoaded); }},
        {u"pairs"_s, u"the sin/cos pairs of the PE: ⌈k/2⌉"_s, [](const Params &p) { return integer(pairCount(p)); }},
        {u"w_last"_s, u"w of the last pair, b^(−2(⌈k/2⌉−1)/k)"_s,
         [](const Params &p) { return real(angular(p, pairCount(p) - 1)); }},
        {u"lambda_first"_s, u"the wavelength of pair 0: 2π"_s,
         [](const Params &p) { return real(Frequencies::wavelength(0, p.peColumns(), p.sinusoidal.base)); }},
        {u"lambda_mid"_s, u"the wavelength of the middle pair"_s,
         [](const Params &p) {
             return real(Frequencies::wavelength(pairCount(p) / 2, p.peColumns(), p.sinusoidal.base));
         }},
        {u"lambda_last"_s, u"the wavelength of the last pair"_s,
         [](const Params &p) {
             return real(Frequencies::wavelength(pairCount(p) - 1, p.peColumns(), p.sinusoidal.base));
         }},
        {u"mid_pair"_s, u"the middle pair, ⌈k/2⌉/2 rounded down"_s,
         [](const Params &p) { return integer(pairCount(p) / 2); }},
        {u"slow_pairs"_s, u"the pairs whose wavelength exceeds L: not one period over the table"_s,
         [](const Params &p) { return integer(pairCount(p) - firstSlowPair(p)); }},
        {u"slow_column"_s, u"the PE's column of the first such pair's sine"_s,
         [](const Params &p) {
             const std::int64_t pair = firstSlowPair(p);
             if (pair == pairCount(p))
                 return none(u"none (every pair turns at least once over L positions)"_s);
             return integer(Frequencies::column({pair, false}, p.peColumns(), p.sinusoidal.layout));
         }},
        {u"pe_mean_first"_s, u"the mean of the PE's column 0 over the positions"_s,
         [](const Params &p) { return real(columnMoments(p, 0).first); }},
        {u"pe_std_first"_s, u"the standard deviation of the PE's column 0"_s,
         [](const Params &p) { return real(columnMoments(p, 0).second); }},
        {u"last_column"_s, u"the PE's last column, k − 1"_s,
         [](const Params &p) { return integer(p.peColumns() - 1); }},
        {u"pe_mean_last"_s, u"the mean of the PE's last column over the positions"_s,
         [](const Params &p) { return real(columnMoments(p, p.peColumns() - 1).first); }},
        {u"pe_std_last"_s, u"the standard deviation of the PE's last column"_s,
         [](const Params &p) { return real(columnMoments(p, p.peColumns() - 1).second); }},
        {u"sim_0"_s, u"S(0) = Σ_i cos(0) over the whole pairs: ||PE_p||²"_s,
         [](const Params &p) { return real(similarity(p, 0.0)); }},
        {u"sim_1"_s, u"S(1) = Σ_i cos(w_i)"_s, [](const Params &p) { return real(similarity(p, 1.0)); }},
        {u"sim_10"_s, u"S(10) = Σ_i cos(10 w_i)"_s, [](const Params &p) { return real(similarity(p, 10.0)); }},
        {u"sim_100"_s, u"S(100) = Σ_i cos(100 w_i)"_s, [](const Params &p) { return real(similarity(p, 100.0)); }},
        {u"last_position"_s, u"L − 1"_s, [](const Params &p) { return integer(p.maxLen - 1); }},
        {u"f32_bound"_s, u"(L − 1)·w_0·2⁻²³ + 2⁻²⁵: the float32-angle error bound at the last position"_s,
         [](const Params &p) { return real(float32Bound(double(p.maxLen - 1))); }},
        {u"f32_spacing"_s, u"the spacing of float32 numbers at L − 1: the angle of column 0 moves in such steps"_s,
         [](const Params &p) {
             const double last = double(p.maxLen - 1);
             return last < 1.0 ? real(std::ldexp(1.0, -149)) : real(std::ldexp(1.0, std::ilogb(last) - 23));
         }},
        {u"f32_reach_1e3"_s, u"the position where the bound reaches 10⁻³"_s,
         [](const Params &) {
             return integer(std::int64_t(std::ceil((1e-3 - std::ldexp(1.0, -25)) * std::ldexp(1.0, 23))));
         }},
        {u"recovered"_s,
         u"positions q whose nearest PE row to the PE's part of Y_q, M ⊙ PE_q / (1 − p), is PE_q, at the current p"_s,
         [](const Params &p) { return recovered(p, p.training ? p.dropout : 0.0); }},
        {u"recovered_p50"_s, u"the same at p = 0.5"_s, [](const Params &p) { return recovered(p, 0.5); }},
        {u"recovered_p90"_s, u"the same at p = 0.9"_s, [](const Params &p) { return recovered(p, 0.9); }},
        {u"cos_e_pe"_s, u"the mean |cos(s·E_q, PE_q)| over the first cos_e_pe_rows positions, this seed"_s,
         embeddingPeCosine},
        {u"cos_e_pe_rows"_s, u"the positions cos_e_pe is taken over: all of L up to 4096, the first 4096 past it"_s,
         [](const Params &p) { return integer(cosineRows(p)); }},
        {u"cos_random"_s, u"√(2/(πd)): the mean |cos| of two random directions in d dimensions"_s,
         [](const Params &p) { return real(std::sqrt(2.0 / (std::numbers::pi * d(p)))); }},
        {u"rope_head_dim"_s, u"RoPE's head_dim"_s,
         [](const Params &p) { return isRope(p) ? integer(p.rope.headDim) : none(kNotRope); }},
        {u"rope_rotary_dim"_s, u"the columns of a head that RoPE rotates: int(head_dim · partial_rotary_factor)"_s,
         [](const Params &p) { return isRope(p) ? integer(RopeFrequencies::rotaryDim(p.rope)) : none(kNotRope); }},
        {u"rope_pairs"_s, u"the rotary pairs, rotary dim / 2"_s,
         [](const Params &p) { return isRope(p) ? integer(RopeFrequencies::pairs(p.rope)) : none(kNotRope); }},
        {u"rope_theta"_s, u"rope_theta, the base of θᵢ = θ^(−2i/r)"_s,
         [](const Params &p) { return isRope(p) ? real(p.rope.theta) : none(kNotRope); }},
        {u"rope_factor"_s, u"the scaling's factor"_s,
         [](const Params &p) {
             return !isRope(p)   ? none(kNotRope)
                 : p.rope.factor ? real(*p.rope.factor)
                                 : none(u"none (no factor given)"_s);
         }},
        {u"rope_original"_s, u"the original context L₀ a scaling stretches"_s,
         [](const Params &p) {
             return !isRope(p)           ? none(kNotRope)
                 : p.rope.originalMaxLen ? integer(*p.rope.originalMaxLen)
                                         : none(u"none (no original length given)"_s);
         }},
        {u"rope_attention"_s, u"the attention factor that multiplies cos and sin"_s,
         [](const Params &p) { return isRope(p) ? real(RopeFrequencies::table(p).attentionFactor) : none(kNotRope); }},
        {u"rope_logit_scale"_s,
         u"what the scaling does to q·k: the attention factor squared (times a yarn softmax scale)"_s,
         [](const Params &p) { return isRope(p) ? real(RopeFrequencies::describe(p).logitScale) : none(kNotRope); }},
        {u"rope_yarn_mscale"_s, u"yarn's default attention factor for this factor, 0.1·ln f + 1"_s,
         [](const Params &p) {
             if (!isRope(p))
                 return none(kNotRope);
             if (!p.rope.factor)
                 return none(u"none (no factor given)"_s);
             return real(*p.rope.factor <= 1.0 ? 1.0 : 0.1 * std::log(*p.rope.factor) + 1.0);
         }},
        {u"rope_yarn_logits"_s, u"(0.1·ln f + 1)²: yarn's default factor on q·k"_s,
         [](const Params &p) {
             if (!isRope(p))
                 return none(kNotRope);
             if (!p.rope.factor)
                 return none(u"none (no factor given)"_s);
             const double m = *p.rope.factor <= 1.0 ? 1.0 : 0.1 * std::log(*p.rope.factor) + 1.0;
             return real(m * m);
         }},
        {u"rope_dynamic_base"_s,
         u"dynamic (NTK) scaling's base: θ·(f·seq/L₀ − (f − 1))^(r/(r − 2)), seq = max(L, L₀)"_s, ropeDynamicBase},
        {u"rope_lambda_first"_s, u"the wavelength of pair 0 after scaling"_s,
         [](const Params &p) { return ropeWavelength(p, false, true); }},
        {u"rope_lambda_last"_s, u"the wavelength of the last pair that turns, after scaling"_s,
         [](const Params &p) { return ropeWavelength(p, true, true); }},
        {u"rope_lambda_first_before"_s, u"the wavelength of pair 0 before scaling"_s,
         [](const Params &p) { return ropeWavelength(p, false, false); }},
        {u"rope_lambda_last_before"_s, u"the wavelength of the last pair that turns, before scaling"_s,
         [](const Params &p) { return ropeWavelength(p, true, false); }},
        {u"rope_critical_dim"_s, u"the critical dimension 2⌈(r/2)·log_θ(L₀/2π)⌉ (Liu et al. 2023)"_s,
         [](const Params &p) {
             return isRope(p) ? integer(RopeFrequencies::describe(p).criticalDimension) : none(kNotRope);
         }},
        {u"rope_kept"_s, u"the pairs a scaling keeps (llama3's band 0, yarn's ramp 0)"_s,
         [](const Params &p) { return ropeCount(p, &RopeFrequencies::Description::pairsKept); }},
        {u"rope_blended"_s, u"the pairs a scaling blends (llama3's band 1, yarn's ramp between 0 and 1)"_s,
         [](const Params &p) { return ropeCount(p, &RopeFrequencies::Description::pairsBlended); }},
        {u"rope_divided"_s, u"the pairs a scaling divides by the factor (llama3's band 2, yarn's ramp 1)"_s,
         [](const Params &p) { return ropeCount(p, &RopeFrequencies::Description::pairsDivided); }},
        {u"rope_dot_3_10"_s, u"<R(3)q, R(10)k> for q_j = sin(j + 1), k_j = cos(2j + 1), in the layout"_s,
         [](const Params &p) { return ropeScore(p, 3.0, 10.0, p.rope.layout); }},
        {u"rope_dot_100_107"_s, u"<R(100)q, R(107)k>: the same distance 7"_s,
         [](const Params &p) { return ropeScore(p, 100.0, 107.0, p.rope.layout); }},
        {u"rope_dot_3_11"_s, u"<R(3)q, R(11)k>: distance 8"_s,
         [](const Params &p) { return ropeScore(p, 3.0, 11.0, p.rope.layout); }},
        {u"rope_dot_0_7"_s, u"<q, R(7)k>: distance 7 from position 0"_s,
         [](const Params &p) { return ropeScore(p, 0.0, 7.0, p.rope.layout); }},
        {u"rope_norm_q"_s, u"‖q‖ for q_j = sin(j + 1) over head_dim"_s,
         [](const Params &p) {
             return isRope(p) ? real(std::sqrt(ropeDot(ropeVector(p, true), ropeVector(p, true)))) : none(kNotRope);
         }},
        {u"rope_norm_rq"_s, u"‖R(1000)q‖: the rotation keeps each pair's norm, times the attention factor"_s,
         [](const Params &p) {
             if (!isRope(p))
                 return none(kNotRope);
             const std::vector<double> r
                 = ropeRotated(ropeVector(p, true), 1000.0, RopeFrequencies::table(p), p.rope.layout);
             return real(std::sqrt(ropeDot(r, r)));
         }},
        {u"rope_right_10"_s, u"<q, R(10)k> with the pairs of the layout the weights were trained in"_s,
         [](const Params &p) { return ropeScore(p, 0.0, 10.0, p.rope.layout); }},
        {u"rope_wrong_10"_s, u"the same vectors rotated with the other layout's pairs"_s,
         [](const Params &p) { return ropeScore(p, 0.0, 10.0, otherLayout(p.rope.layout)); }},
        {u"rope_right_100"_s, u"<q, R(100)k> in the layout"_s,
         [](const Params &p) { return ropeScore(p, 0.0, 100.0, p.rope.layout); }},
        {u"rope_wrong_100"_s, u"the same in the other layout"_s,
         [](const Params &p) { return ropeScore(p, 0.0, 100.0, otherLayout(p.rope.layout)); }},
        {u"rope_ones_1"_s, u"<q, R(1)q>/‖q‖² for q all ones: the score of an aligned pair at distance 1"_s,
         [](const Params &p) { return ropeOnes(p, 1.0); }},
        {u"rope_ones_10"_s, u"the same at distance 10"_s, [](const Params &p) { return ropeOnes(p, 10.0); }},
        {u"rope_ones_100"_s, u"the same at distance 100"_s, [](const Params &p) { return ropeOnes(p, 100.0); }},
        {u"rope_ones_1000"_s, u"the same at distance 1000"_s, [](const Params &p) { return ropeOnes(p, 1000.0); }},
        {u"rope_bound_0"_s, u"RoFormer's bound (1/h)·Σⱼ|Sⱼ| at distance 0: (h + 1)/2"_s,
         [](const Params &p) { return ropeBound(p, 0.0); }},
        {u"rope_bound_100"_s, u"RoFormer's bound at distance 100"_s,
         [](const Params &p) { return ropeBound(p, 100.0); }},
        {u"rope_bound_1000"_s, u"RoFormer's bound at distance 1000"_s,
         [](const Params &p) { return ropeBound(p, 1000.0); }},
        {u"rope_random_std"_s, u"1/√head_dim: the spread of q·k for two random unit vectors of a head"_s,
         [](const Params &p) { return isRope(p) ? real(1.0 / std::sqrt(double(p.rope.headDim))) : none(kNotRope); }},
        {u"rope_bf16_step"_s, u"the gap between neighbouring bf16 values at position L − 1"_s,
         [](const Params &p) {
             return isRope(p) ? real(RopeFrequencies::describe(p).bf16PositionStep) : none(kNotRope);
         }},
        {u"turns_last"_s, u"(L − 1)/(2π): the turns of column 0's angle up to the last position"_s,
         [](const Params &p) { return real(double(p.maxLen - 1) / (2.0 * std::numbers::pi)); }},
    };
    return table;
}

// The shared numbers, then those of ALiBi, T5, DeBERTa and the five families.
const QList<Entry> &allEntries()
{
    static const QList<Entry> table = [] {
        QList<Entry> list = entries();
        for (const RelativeLessonNumbers::Entry &e : RelativeLessonNumbers::entries())
            list.append({e.key, e.description, e.value});
        return list;
    }();
    return table;
}

const Entry *entry(const QString &key)
{
    for (const Entry &e : allEntries()) {
        if (e.key == key)
            return &e;
    }
    return nullptr;
}

} // namespace

QStringList keys()
{
    QStringList list;
    for (const Entry &e : allEntries())
        list.append(e.key);
    return list;
}

QString describe(const QString &key)
{
    const Entry *e = entry(key);
    return e ? e->description : QString();
}

std::optional<Number> number(const QString &key, const Params &params)
{
    const Entry *e = entry(key);
    if (!e)
        return std::nullopt;
    return e->value(params);
}

QString fill(const QString &text, const Params &params, bool emphasise, QStringList *unknown)
{
    static const QRegularExpression placeholder(u"\\{([A-Za-z0-9_]+)\\}"_s);
    QString filled;
    qsizetype from = 0;
    for (auto it = placeholder.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        filled += text.mid(from, match.capturedStart() - from);
        from = match.capturedEnd();
        const auto found = number(match.captured(1), params);
        if (!found) {
            filled += match.captured(0);
            if (unknown)
                unknown->append(match.captured(1));
            continue;
        }
        filled += emphasise && found->value ? u"<b>%1</b>"_s.arg(found->text) : found->text;
    }
    return filled + text.mid(from);
}

} // namespace posenc::LessonNumbers
