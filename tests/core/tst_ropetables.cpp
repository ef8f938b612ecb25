// RoPE's tables in the engine (rope-frequencies, rope-cos, rope-sin, rope-score, rope-input),
// each against float64 formulas written here from HF transformers' modeling_rope_utils.py and
// apply_rotary_pos_emb, never from the implementation: the two layouts are one column
// permutation, a rotation keeps norms, <R(m) q, R(n) k> depends only on m - n, and float32 cells
// stay within 1e-6 of float64 up to position 2^24 - 1.
#include "EngineTable.h"
#include "Reference.h"

#include "core/Engine.h"
#include "core/rope/RopeScore.h"

#include <QTest>

#include <cmath>
#include <complex>
#include <cstring>
#include <numbers>

using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

constexpr double kPi = std::numbers::pi;

Params rope(std::int64_t headDim, std::int64_t maxLen)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.dModel = std::max<std::int64_t>(headDim, 16);
    p.maxLen = maxLen;
    p.rope.headDim = headDim;
    p.dropout = 0.0;
    return p;
}

// The float64 reference of one head: rotary dim, pure frequencies, band and attention factor.
struct HeadReference
{
    std::int64_t rotary = 0;
    std::vector<double> inv; // after scaling
    std::vector<double> before; // theta^(-2i/r) (the types that scale a default frequency)
    std::vector<double> band;
    double attention = 1.0;
};

double getMscale(double scale, double m)
{
    return scale <= 1.0 ? 1.0 : 0.1 * m * std::log(scale) + 1.0;
}

HeadReference headReference(const Params &p)
{
    const RopeParams &r = p.rope;
    HeadReference f;
    const bool proportional = r.type == RopeType::Proportional;
    f.rotary = proportional ? r.headDim : static_cast<std::int64_t>(double(r.headDim) * r.partialRotaryFactor);
    const std::int64_t h = f.rotary / 2;
    const double dim = double(f.rotary);
    const double factor = r.factor.value_or(1.0);
    for (std::int64_t i = 0; i < h; ++i) {
        const double before = std::pow(r.theta, -2.0 * double(i) / dim);
        double inv = before;
        double band = 0.0;
        switch (r.type) {
        case RopeType::Default:
            break;
        case RopeType::Linear:
            inv = before / factor;
            break;
        case RopeType::Yarn: {
            const double original = double(*r.originalMaxLen);
            const auto corr
                = [&](double n) { return dim * std::log(original / (n * 2.0 * kPi)) / (2.0 * std::log(r.theta)); };
            double low = corr(r.betaFast);
            double high = corr(r.betaSlow);
            if (r.yarnTruncate) {
                low = std::floor(low);
                high = std::ceil(high);
            }
            low = std::max(low, 0.0);
            high = std::min(high, dim - 1.0);
            if (low == high)
                high += 0.001;
            const double ramp = std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
            const double pos = std::pow(r.theta, 2.0 * double(i) / dim);
            inv = ramp / (factor * pos) + (1.0 - ramp) / pos;
            band = ramp;
            break;
        }
        case RopeType::Llama3: {
            const double original = double(*r.originalMaxLen);
            const double wavelength = 2.0 * kPi / before;
            const double lowWavelength = original / r.lowFreqFactor;
            const double highWavelength = original / r.highFreqFactor;
            if (wavelength <= highWavelength) {
                band = 0.0;
            } else if (wavelength > lowWavelength) {
                inv = before / factor;
                band = 2.0;
            } else {
                const double smooth = (original / wavelength - r.lowFreqFactor) / (r.highFreqFactor - r.lowFreqFactor);
                inv = (1.0 - smooth) * before / factor + smooth * before;
                band = 1.0;
            }
            break;
        }
        case RopeType::Proportional: {
            const auto angles = static_cast<std::int64_t>(std::floor(r.partialRotaryFactor * double(r.headDim) / 2.0));
            inv = i < angles ? std::pow(r.theta, -2.0 * double(i) / double(r.headDim)) / factor : 0.0;
            break;
        }
        case RopeType::Dynamic:
        case RopeType::LongRope:
            qFatal("no reference here for this type");
        }
        f.inv.push_back(inv);
        f.before.push_back(before);
        f.band.push_back(band);
    }
    if (r.type == RopeType::Yarn) {
        if (r.attentionFactor)
            f.attention = *r.attentionFactor;
        else if (r.mscale && r.mscaleAllDim && *r.mscale != 0.0 && *r.mscaleAllDim != 0.0)
            f.attention = getMscale(factor, *r.mscale) / getMscale(factor, *r.mscaleAllDim);
        else
            f.attention = getMscale(factor, 1.0);
    }
    return f;
}

// sin / cos of the exact product p * w (hi + lo by fma), about 1e-16 from the true value.
std::pair<double, double> sinCos(double p, double w)
{
    const double hi = p * w;
    const double lo = std::fma(p, w, -hi);
    const double s = std::sin(hi), c = std::cos(hi);
    return {s + c * lo, c - s * lo};
}

// The pair of column c of the cos and sin tables: c mod h (half) or c / 2 (interleaved).
std::int64_t pairOf(std::int64_t column, std::int64_t h, RopeLayout layout)
{
    return layout == RopeLayout::Half ? column % h : column / 2;
}

RowMatrixXf whole(const Engine &engine, Quantity q)
{
    const Shape s = engine.shape(q);
    return testing::computeTable(engine, q, {0, s.rows, 0, s.cols});
}

bool bitEqual(const RowMatrixXf &a, const RowMatrixXf &b)
{
    return a.rows() == b.rows() && a.cols() == b.cols()
        && std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

// A matrix of embedding rows, each row's cells different.
std::shared_ptr<const EmbeddingMatrix> matrix(const RowMatrixXf &values)
{
    auto m = std::make_shared<EmbeddingMatrix>();
    m->values = values;
    m->source = u"test.npy"_s;
    return m;
}

// Settings of every type with a reference here, in both layouts.
QList<std::pair<QString, Params>> typedSettings()
{
    QList<std::pair<QString, Params>> list;
    Params base = rope(64, 2500);
    list.append({u"default"_s, base});
    Params linear = base;
    linear.rope.type = RopeType::Linear;
    linear.rope.factor = 8.0;
    linear.rope.theta = 1e6;
    list.append({u"linear"_s, linear});
    Params llama3 = base;
    llama3.rope.type = RopeType::Llama3;
    llama3.rope.factor = 8.0;
    llama3.rope.theta = 500000.0;
    llama3.rope.originalMaxLen = 8192;
    list.append({u"llama3"_s, llama3});
    Params yarn = base;
    yarn.rope.type = RopeType::Yarn;
    yarn.rope.factor = 32.0;
    yarn.rope.theta = 150000.0;
    yarn.rope.originalMaxLen = 4096;
    yarn.rope.yarnTruncate = false;
    list.append({u"yarn, truncate off"_s, yarn});
    Params deepseek = yarn;
    deepseek.rope.yarnTruncate = true;
    deepseek.rope.factor = 40.0;
    deepseek.rope.mscale = 0.707;
    deepseek.rope.mscaleAllDim = 1.0;
    list.append({u"yarn, mscale pair"_s, deepseek});
    Params explicitFactor = yarn;
    explicitFactor.rope.attentionFactor = 1.25;
    list.append({u"yarn, attention factor"_s, explicitFactor});
    Params partial = base;
    partial.rope.partialRotaryFactor = 0.25;
    partial.rope.headDim = 96;
    partial.dModel = 96;
    list.append({u"partial 0.25"_s, partial});
    Params proportional = base;
    proportional.rope.type = RopeType::Proportional;
    proportional.rope.partialRotaryFactor = 0.25;
    proportional.rope.theta = 1e6;
    list.append({u"proportional 0.25"_s, proportional});
    QList<std::pair<QString, Params>> both;
    for (const auto &[name, p] : list) {
        both.append({name + u", half"_s, p});
        Params interleaved = p;
        interleaved.rope.layout = RopeLayout::Interleaved;
        both.append({name + u", interleaved"_s, interleaved});
    }
    return both;
}

const QList<Quantity> kRopeQuantities
    = {Quantity::RopeFrequencies, Quantity::RopeCos, Quantity::RopeSin, Quantity::RopeScore, Quantity::RopeInput};

} // namespace

class TestRopeTables : public QObject
{
    Q_OBJECT

private slots:
    void onlyTheRopeEncodingHasThem();
    void shapes();
    void frequenciesMatchTheFormulas_data();
    void frequenciesMatchTheFormulas();
    void cosAndSinMatchTheFormulas_data();
    void cosAndSinMatchTheFormulas();
    void exactNearTheLastPosition_data();
    void exactNearTheLastPosition();
    void layoutsAreAColumnPermutation_data();
    void layoutsAreAColumnPermutation();
    void inputMatchesApplyRotaryPosEmb_data();
    void inputMatchesApplyRotaryPosEmb();
    void rotationKeepsNorms_data();
    void rotationKeepsNorms();
    void productDependsOnlyOnTheDistance();
    void scoreMatchesTheFormulas_data();
    void scoreMatchesTheFormulas();
    void blocksAndThreadsGiveTheSameCells_data();
    void blocksAndThreadsGiveTheSameCells();
};

void TestRopeTables::onlyTheRopeEncodingHasThem()
{
    for (const Encoding e : {Encoding::Sinusoidal, Encoding::None}) {
        Params p;
        p.encoding = e;
        const Engine engine(p);
        for (const Quantity q : kRopeQuantities) {
            const auto refusal = engine.check(q, {0, 1, 0, 1});
            QVERIFY2(refusal && refusal->contains(u"rope"_s), qPrintable(Quantities::name(q)));
        }
    }
    const Params p = rope(64, 100);
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    const QList<Quantity> available = Quantities::available(p);
    for (const Quantity q : kRopeQuantities)
        QVERIFY2(available.contains(q), qPrintable(Quantities::name(q)));
    for (const QString &name : {u"rope-frequencies"_s, u"rope-cos"_s, u"rope-sin"_s, u"rope-score"_s, u"rope-input"_s})
        QVERIFY2(Quantities::fromName(name), qPrintable(name));
}

void TestRopeTables::shapes()
{
    Params p = rope(96, 300);
    p.rope.partialRotaryFactor = 0.25;
    const Engine engine(p);
    QCOMPARE(engine.shape(Quantity::RopeFrequencies), (Shape {12, 5}));
    QCOMPARE(engine.shape(Quantity::RopeCos), (Shape {300, 24}));
    QCOMPARE(engine.shape(Quantity::RopeSin), (Shape {300, 24}));
    QCOMPARE(engine.shape(Quantity::RopeScore), (Shape {300, 4}));
    QCOMPARE(engine.shape(Quantity::RopeInput), (Shape {300, 96}));
    // Proportional turns every pair of the head, the tail at frequency 0.
    p.rope.type = RopeType::Proportional;
    const Engine proportional(p);
    QCOMPARE(proportional.shape(Quantity::RopeCos), (Shape {300, 96}));
    QCOMPARE(proportional.shape(Quantity::RopeFrequencies), (Shape {48, 5}));
}

void TestRopeTables::frequenciesMatchTheFormulas_data()
{
    QTest::addColumn<Params>("params");
    for (const auto &[name, p] : typedSettings())
        QTest::newRow(qPrintable(name)) << p;
}

void TestRopeTables::frequenciesMatchTheFormulas()
{
    QFETCH(Params, params);
    QVERIFY2(params.isValid(), qPrintable(params.validate().value(0).sentence()));
    const Engine engine(params);
    const RowMatrixXf table = whole(engine, Quantity::RopeFrequencies);
    const HeadReference f = headReference(params);
    QCOMPARE(table.rows(), static_cast<Eigen::Index>(f.inv.size()));
    const auto close = [](double value, double expected) {
        return std::abs(value - expected) <= 1e-6 * std::abs(expected) || (std::isinf(value) && std::isinf(expected));
    };
    for (Eigen::Index i = 0; i < table.rows(); ++i) {
        const auto k = static_cast<std::size_t>(i);
        const double wavelength = f.inv[k] > 0.0 ? 2.0 * kPi / f.inv[k] : std::numeric_limits<double>::infinity();
        QVERIFY2(close(table(i, 0), f.inv[k]),
                 qPrintable(u"pair %1: inv %2, expected %3"_s.arg(i).arg(table(i, 0)).arg(f.inv[k])));
        QVERIFY2(close(table(i, 2), wavelength), qPrintable(u"pair %1: wavelength"_s.arg(i)));
        QVERIFY2(std::abs(table(i, 4) - f.band[k]) <= 1e-6, qPrintable(u"pair %1: band"_s.arg(i)));
        if (params.rope.type != RopeType::Proportional) {
            QVERIFY2(close(table(i, 1), f.before[k]), qPrintable(u"pair %1: inv before"_s.arg(i)));
            QVERIFY2(close(table(i, 3), 2.0 * kPi / f.before[k]), qPrintable(u"pair %1: wavelength before"_s.arg(i)));
        }
    }
}

void TestRopeTables::cosAndSinMatchTheFormulas_data()
{
    frequenciesMatchTheFormulas_data();
}

// As HF returns them: af * cos(p theta_pair(c)) and af * sin, the pair of column c by the layout.
void TestRopeTables::cosAndSinMatchTheFormulas()
{
    QFETCH(Params, params);
    const Engine engine(params);
    const HeadReference f = headReference(params);
    const std::int64_t h = f.rotary / 2;
    const RowMatrixXf cosines = whole(engine, Quantity::RopeCos);
    const RowMatrixXf sines = whole(engine, Quantity::RopeSin);
    QCOMPARE(cosines.cols(), static_cast<Eigen::Index>(f.rotary));
    double worst = 0.0;
    for (Eigen::Index p = 0; p < cosines.rows(); ++p) {
        for (Eigen::Index c = 0; c < cosines.cols(); ++c) {
            const auto [s, co] = sinCos(double(p), f.inv[static_cast<std::size_t>(pairOf(c, h, params.rope.layout))]);
            worst = std::max({worst, std::abs(double(cosines(p, c)) - f.attention * co),
                              std::abs(double(sines(p, c)) - f.attention * s)});
        }
    }
    QVERIFY2(worst <= 1e-6, qPrintable(u"largest |error| %1"_s.arg(worst)));
}

void TestRopeTables::exactNearTheLastPosition_data()
{
    QTest::addColumn<Params>("params");
    for (const auto &[name, p] : typedSettings()) {
        Params longest = p;
        longest.maxLen = Params::kMaxLen;
        QTest::newRow(qPrintable(name)) << longest;
    }
}

// Positions 2^24 - 40 .. 2^24 - 1, where p * theta_0 is near 2^24 and float32 angles would be off by ~1.
void TestRopeTables::exactNearTheLastPosition()
{
    QFETCH(Params, params);
    QVERIFY2(params.isValid(), qPrintable(params.validate().value(0).sentence()));
    const Engine engine(params);
    const HeadReference f = headReference(params);
    const std::int64_t h = f.rotary / 2;
    const Block block {Params::kMaxLen - 40, 40, 0, f.rotary};
    const RowMatrixXf cosines = testing::computeTable(engine, Quantity::RopeCos, block, 1);
    const RowMatrixXf sines = testing::computeTable(engine, Quantity::RopeSin, block, 2);
    double worst = 0.0;
    for (Eigen::Index r = 0; r < block.rows; ++r) {
        const double p = double(block.row0 + r);
        for (Eigen::Index c = 0; c < block.cols; ++c) {
            const auto [s, co] = sinCos(p, f.inv[static_cast<std::size_t>(pairOf(c, h, params.rope.layout))]);
            worst = std::max({worst, std::abs(double(cosines(r, c)) - f.attention * co),
                              std::abs(double(sines(r, c)) - f.attention * s)});
        }
    }
    QVERIFY2(worst <= 1e-6, qPrintable(u"largest |error| %1"_s.arg(worst)));
}

void TestRopeTables::layoutsAreAColumnPermutation_data()
{
    QTest::addColumn<Params>("params");
    for (const auto &[name, p] : typedSettings()) {
        if (p.rope.layout == RopeLayout::Half)
            QTest::newRow(qPrintable(name)) << p;
    }
}

// Half's columns i and h + i are interleaved's 2i and 2i + 1: in the cos and sin tables, and in
// rope-input for the same model, whose weights an interleaved checkpoint holds permuted alike.
void TestRopeTables::layoutsAreAColumnPermutation()
{
    QFETCH(Params, params);
    Params interleaved = params;
    interleaved.rope.layout = RopeLayout::Interleaved;
    const std::int64_t headDim = params.rope.headDim;
    const std::int64_t h = headReference(params).rotary / 2;
    // Column of the half layout -> its column in the interleaved one.
    const auto moved = [h](std::int64_t c) { return c < h ? 2 * c : c < 2 * h ? 2 * (c - h) + 1 : c; };
    for (const Quantity q : {Quantity::RopeCos, Quantity::RopeSin}) {
        const RowMatrixXf a = whole(Engine(params), q);
        const RowMatrixXf b = whole(Engine(interleaved), q);
        for (Eigen::Index c = 0; c < a.cols(); ++c)
            QVERIFY2(bitEqual(a.col(c), b.col(moved(c))),
                     qPrintable(u"%1 column %2"_s.arg(Quantities::name(q)).arg(c)));
    }
    RowMatrixXf values = RowMatrixXf::NullaryExpr(params.maxLen, params.dModel, [](Eigen::Index r, Eigen::Index c) {
        return std::sin(0.37f * float(r) + 1.3f * float(c)) * (1.0f + 0.01f * float(c));
    });
    RowMatrixXf permuted = values;
    for (std::int64_t c = 0; c < headDim; ++c)
        permuted.col(moved(c)) = values.col(c);
    params.embeddings = matrix(values);
    interleaved.embeddings = matrix(permuted);
    const RowMatrixXf a = whole(Engine(params), Quantity::RopeInput);
    const RowMatrixXf b = whole(Engine(interleaved), Quantity::RopeInput);
    for (std::int64_t c = 0; c < headDim; ++c)
        QVERIFY2(bitEqual(a.col(c), b.col(moved(c))), qPrintable(u"rope-input column %1"_s.arg(c)));
}

void TestRopeTables::inputMatchesApplyRotaryPosEmb_data()
{
    frequenciesMatchTheFormulas_data();
}

// apply_rotary_pos_emb on s*E's first head_dim columns: x * cos + rotate_half(x) * sin (or GPT-J's
// pairs), cos and sin with the attention factor, the columns past the rotary dim as they are.
void TestRopeTables::inputMatchesApplyRotaryPosEmb()
{
    QFETCH(Params, params);
    params.maxLen = 300;
    params.dModel = params.rope.headDim + 8;
    const Engine engine(params);
    const HeadReference f = headReference(params);
    const std::int64_t h = f.rotary / 2;
    const RowMatrixXf x = whole(engine, Quantity::Embedding);
    const RowMatrixXf out = whole(engine, Quantity::RopeInput);
    QCOMPARE(out.cols(), static_cast<Eigen::Index>(params.rope.headDim));
    const bool half = params.rope.layout == RopeLayout::Half;
    for (Eigen::Index p = 0; p < out.rows(); ++p) {
        for (std::int64_t i = 0; i < h; ++i) {
            const std::int64_t a = half ? i : 2 * i;
            const std::int64_t b = half ? h + i : 2 * i + 1;
            const auto [s, c] = sinCos(double(p), f.inv[static_cast<std::size_t>(i)]);
            const double x1 = x(p, a), x2 = x(p, b);
            const double tolerance = 1e-6 * (std::abs(x1) + std::abs(x2) + 1.0) * f.attention;
            QVERIFY2(std::abs(out(p, a) - f.attention * (x1 * c - x2 * s)) <= tolerance,
                     qPrintable(u"(%1, %2)"_s.arg(p).arg(a)));
            QVERIFY2(std::abs(out(p, b) - f.attention * (x2 * c + x1 * s)) <= tolerance,
                     qPrintable(u"(%1, %2)"_s.arg(p).arg(b)));
        }
        for (std::int64_t j = f.rotary; j < params.rope.headDim; ++j)
            QCOMPARE(out(p, j), x(p, j));
    }
}

void TestRopeTables::rotationKeepsNorms_data()
{
    QTest::addColumn<Params>("params");
    Params plain = rope(128, 600);
    QTest::newRow("default, af 1") << plain;
    Params partial = plain;
    partial.rope.partialRotaryFactor = 0.5;
    partial.rope.layout = RopeLayout::Interleaved;
    QTest::newRow("partial, interleaved, af 1") << partial;
    Params yarn = partial;
    yarn.rope.type = RopeType::Yarn;
    yarn.rope.factor = 16.0;
    yarn.rope.originalMaxLen = 4096;
    QTest::newRow("yarn, af 0.1 ln 16 + 1") << yarn;
}

// Each rotated pair keeps its norm, times the attention factor; the unrotated columns are s*E's.
void TestRopeTables::rotationKeepsNorms()
{
    QFETCH(Params, params);
    params.dModel = 256;
    const Engine engine(params);
    const HeadReference f = headReference(params);
    const std::int64_t r = f.rotary;
    const RowMatrixXf x = whole(engine, Quantity::Embedding);
    const RowMatrixXf out = whole(engine, Quantity::RopeInput);
    for (Eigen::Index p = 0; p < out.rows(); ++p) {
        // The rotated columns are [0, r) in either layout.
        const double before = x.row(p).head(r).cast<double>().norm();
        const double after = out.row(p).head(r).cast<double>().norm();
        QVERIFY2(std::abs(after - f.attention * before) <= 1e-6 * f.attention * before,
                 qPrintable(u"row %1: %2 against %3"_s.arg(p).arg(after).arg(f.attention * before)));
        for (std::int64_t j = r; j < params.rope.headDim; ++j)
            QCOMPARE(out(p, j), x(p, j));
        if (f.attention == 1.0) {
            const double norm = out.row(p).cast<double>().norm();
            QVERIFY(std::abs(norm - x.row(p).head(params.rope.headDim).cast<double>().norm()) <= 1e-6 * norm);
        }
    }
}

// <R(m) q, R(n) k> = <q, R(n - m) k>: rope-input of a matrix whose rows are all q, and of one whose
// rows are all k, gives the same product for every pair of positions at one distance.
void TestRopeTables::productDependsOnlyOnTheDistance()
{
    Params params = rope(64, 2200);
    params.rope.type = RopeType::Llama3;
    params.rope.factor = 8.0;
    params.rope.theta = 500000.0;
    params.rope.originalMaxLen = 8192;
    params.scaleKind = ScaleKind::One;
    Eigen::RowVectorXf q(params.dModel), k(params.dModel);
    for (Eigen::Index j = 0; j < q.size(); ++j) {
        q[j] = std::cos(0.7f * float(j)) + 0.1f;
        k[j] = std::sin(1.9f * float(j) + 0.3f);
    }
    Params queries = params, keys = params;
    queries.embeddings = matrix(q.replicate(params.maxLen, 1));
    keys.embeddings = matrix(k.replicate(params.maxLen, 1));
    const RowMatrixXf rq = whole(Engine(queries), Quantity::RopeInput);
    const RowMatrixXf rk = whole(Engine(keys), Quantity::RopeInput);
    const HeadReference f = headReference(params);
    for (const std::int64_t distance : {0, 1, 7, 100, 1500}) {
        // The float64 product at that distance, in the pairs' coordinates (half layout).
        double expected = 0.0;
        const std::int64_t h = f.rotary / 2;
        for (std::int64_t i = 0; i < h; ++i) {
            const auto [s, c] = sinCos(double(distance), f.inv[static_cast<std::size_t>(i)]);
            const double qx = q[i], qy = q[h + i], kx = k[i], ky = k[h + i];
            expected += (qx * kx + qy * ky) * c + (qy * kx - qx * ky) * s;
        }
        for (const std::int64_t m :
             {std::int64_t(0), std::int64_t(3), std::int64_t(511), std::int64_t(1023), std::int64_t(2199) - distance}) {
            if (m + distance >= params.maxLen)
                continue;
            const double product = rq.row(m).cast<double>().dot(rk.row(m + distance).cast<double>());
            QVERIFY2(std::abs(product - expected) <= 1e-5 * (std::abs(expected) + 1.0),
                     qPrintable(u"m %1, distance %2: %3 against %4"_s.arg(m).arg(distance).arg(product).arg(expected)));
        }
    }
}

void TestRopeTables::scoreMatchesTheFormulas_data()
{
    QTest::addColumn<Params>("params");
    Params partial = rope(96, 700);
    partial.rope.partialRotaryFactor = 0.5;
    QTest::newRow("partial 0.5") << partial;
    for (const auto &[name, p] : typedSettings()) {
        if (p.rope.type == RopeType::Llama3 || p.rope.type == RopeType::Proportional)
            QTest::newRow(qPrintable(name)) << p;
    }
    Params seeded = partial;
    seeded.seed = 12345;
    QTest::newRow("another seed") << seeded;
}

// Column 0: <q, R(k) q> / |q|^2 for q all ones; 1, 2: the mean and std (over 256) of <q, R(k) k>
// for the seeded unit pairs; 3: (1/h) sum_j |sum_{i<j} e^{i k theta_i}|. Both layouts alike.
void TestRopeTables::scoreMatchesTheFormulas()
{
    QFETCH(Params, params);
    const Engine engine(params);
    const RowMatrixXf score = whole(engine, Quantity::RopeScore);
    Params other = params;
    other.rope.layout = params.rope.layout == RopeLayout::Half ? RopeLayout::Interleaved : RopeLayout::Half;
    QVERIFY(bitEqual(score, whole(Engine(other), Quantity::RopeScore)));
    const HeadReference f = headReference(params);
    const std::int64_t headDim = params.rope.headDim;
    const std::int64_t h = f.rotary / 2;
    // The pairs drawn by the program's seeded generator; their products computed here.
    std::vector<std::vector<double>> qs, ks;
    for (std::int64_t n = 0; n < RopeScore::kSamples; ++n) {
        qs.push_back(RopeScore::unitVector(params.seed, 2 * n, headDim));
        ks.push_back(RopeScore::unitVector(params.seed, 2 * n + 1, headDim));
        double norm = 0.0;
        for (const double v : qs.back())
            norm += v * v;
        QVERIFY(std::abs(norm - 1.0) < 1e-12);
    }
    for (const std::int64_t k :
         {std::int64_t(0), std::int64_t(1), std::int64_t(2), std::int64_t(57), std::int64_t(1024), params.maxLen - 1}) {
        if (k >= params.maxLen)
            continue;
        double ones = double(headDim - 2 * h);
        double boundSum = 0.0;
        std::complex<double> partial;
        std::vector<double> c(static_cast<std::size_t>(h)), s(static_cast<std::size_t>(h));
        for (std::int64_t i = 0; i < h; ++i) {
            const auto [si, ci] = sinCos(double(k), f.inv[static_cast<std::size_t>(i)]);
            c[std::size_t(i)] = ci;
            s[std::size_t(i)] = si;
            ones += 2.0 * ci;
            partial += std::complex<double>(ci, si);
            boundSum += std::abs(partial);
        }
        double sum = 0.0, squares = 0.0;
        for (std::int64_t n = 0; n < RopeScore::kSamples; ++n) {
            const std::vector<double> &qv = qs[std::size_t(n)];
            const std::vector<double> &kv = ks[std::size_t(n)];
            double product = 0.0;
            for (std::int64_t i = 0; i < h; ++i) {
                // R(k) turns pair i's (x, y) = (kv[2i], kv[2i + 1]) by k theta_i.
                const double x = kv[std::size_t(2 * i)], y = kv[std::size_t(2 * i + 1)];
                const double rx = x * c[std::size_t(i)] - y * s[std::size_t(i)];
                const double ry = x * s[std::size_t(i)] + y * c[std::size_t(i)];
                product += qv[std::size_t(2 * i)] * rx + qv[std::size_t(2 * i + 1)] * ry;
            }
            for (std::int64_t j = 2 * h; j < headDim; ++j)
                product += qv[std::size_t(j)] * kv[std::size_t(j)];
            sum += product;
            squares += product * product;
        }
        const double mean = sum / double(RopeScore::kSamples);
        const double spread = std::sqrt(std::max(0.0, squares / double(RopeScore::kSamples) - mean * mean));
        const double expected[] = {ones / double(headDim), mean, spread, h > 0 ? boundSum / double(h) : 0.0};
        for (int col = 0; col < 4; ++col)
            QVERIFY2(
                std::abs(score(k, col) - expected[col]) <= 1e-6 * std::max(1.0, std::abs(expected[col])),
                qPrintable(
                    u"distance %1, column %2: %3 against %4"_s.arg(k).arg(col).arg(score(k, col)).arg(expected[col])));
    }
    // At distance 0 nothing turns: q = k gives 1, and the bound is (1/h) sum_j j = (h + 1) / 2.
    QCOMPARE(score(0, 0), 1.0f);
    QVERIFY(std::abs(score(0, 3) - (double(h) + 1.0) / 2.0) <= 1e-6 * double(h));
}

void TestRopeTables::blocksAndThreadsGiveTheSameCells_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<Quantity>("quantity");
    for (const auto &[name, p] : typedSettings()) {
        Params wide = p;
        wide.maxLen = 2100;
        for (const Quantity q : kRopeQuantities)
            QTest::addRow("%s, %s", qPrintable(name), qPrintable(Quantities::name(q))) << wide << q;
    }
}

// Any block alone, serially or threaded, is the same cells of the whole table, bit for bit.
void TestRopeTables::blocksAndThreadsGiveTheSameCells()
{
    QFETCH(Params, params);
    QFETCH(Quantity, quantity);
    const Engine engine(params);
    const Shape shape = engine.shape(quantity);
    const RowMatrixXf serial = testing::computeTable(engine, quantity, {0, shape.rows, 0, shape.cols}, 1);
    QVERIFY(!serial.array().isNaN().any());
    QCOMPARE(reference::firstBitDifference(serial,
                                           testing::computeTable(engine, quantity, {0, shape.rows, 0, shape.cols}, 2)),
             QString());
    const std::int64_t rows = shape.rows, cols = shape.cols;
    for (const Block block :
         {Block {0, 1, 0, 1}, Block {rows - 1, 1, cols - 1, 1}, Block {1, rows - 2, 1, cols - 2},
          Block {rows / 3, rows / 2, cols / 2, cols - cols / 2}, Block {rows / 2, rows / 2, 0, 1}}) {
        if (block.isEmpty())
            continue;
        RowMatrixXf part(block.rows, block.cols);
        engine.computeBlock(quantity, block, part);
        QCOMPARE(reference::firstBitDifference(serial.block(block.row0, block.col0, block.rows, block.cols), part,
                                               block.row0, block.col0),
                 QString());
    }
}

QTEST_GUILESS_MAIN(TestRopeTables)
#include "tst_ropetables.moc"
