// RoPE's score table (rope-score) against the formulas written here: ⟨q, R(k)q⟩ for q all ones,
// the mean and spread over random unit pairs, RoFormer's decay bound, and the product of two
// rotated rows depending on their distance only (tst_ropetables holds the other tables).
#include "core/EngineTable.h"
#include "core/Reference.h"
#include "support/TestMain.h"

#include "core/Engine.h"
#include "core/rope/RopeScore.h"

#include "RopeTableTesting.h"
#include <QTest>

#include <cmath>
#include <complex>
#include <cstring>
#include <numbers>

namespace tst_ropescore {
using namespace posenc;
using namespace Qt::StringLiterals;
using namespace RopeTableTesting;
class TestRopeScore : public QObject
{
    Q_OBJECT

private slots:
    void productDependsOnlyOnTheDistance();
    void scoreMatchesTheFormulas_data();
    void scoreMatchesTheFormulas();
    void spectrumMatchesTheQuadraticForm_data();
    void spectrumMatchesTheQuadraticForm();
};

// <R(m) q, R(n) k> = <q, R(n - m) k>: rope-input of a matrix whose rows are all q, and of one whose
// rows are all k, gives the same product for every pair of positions at one distance.
void TestRopeScore::productDependsOnlyOnTheDistance()
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

void TestRopeScore::scoreMatchesTheFormulas_data()
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
void TestRopeScore::scoreMatchesTheFormulas()
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

void TestRopeScore::spectrumMatchesTheQuadraticForm_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<qint64>("k0");
    Params llama = rope(128, 200000);
    llama.rope.type = RopeType::Llama3;
    llama.rope.factor = 8.0;
    llama.rope.theta = 500000.0;
    llama.rope.originalMaxLen = 8192;
    QTest::newRow("llama 3.1, from 0") << llama << qint64(0);
    QTest::newRow("llama 3.1, far") << llama << qint64(123457);
    Params partial = rope(96, 200000);
    partial.rope.partialRotaryFactor = 0.5;
    partial.seed = 12345;
    QTest::newRow("partial 0.5, another seed") << partial << qint64(65000);
}

// E[s^2] by the non-uniform FFT against the quadratic form row by row, every distance of a run of
// two tiles and a part (1e-12 of each value), and against the samples' products summed here in
// float64; then the table filled as one block (the spectrum) against its rows one by one.
void TestRopeScore::spectrumMatchesTheQuadraticForm()
{
    QFETCH(Params, params);
    QFETCH(qint64, k0);
    const Engine engine(params);
    const RopeScore &score = engine.source<RopeScore>();
    constexpr std::int64_t kRows = 9000;
    std::vector<double> spectral(kRows), quadratic(kRows);
    score.secondMoments(k0, kRows, true, spectral.data());
    score.secondMoments(k0, kRows, false, quadratic.data());
    double worst = 0.0;
    for (std::int64_t r = 0; r < kRows; ++r) {
        const double a = spectral[std::size_t(r)], b = quadratic[std::size_t(r)];
        QVERIFY(b > 0.0);
        worst = std::max(worst, std::abs(a - b) / b);
    }
    QVERIFY2(worst <= 1e-12, qPrintable(u"relative difference %1"_s.arg(worst)));

    const HeadReference f = headReference(params);
    const std::int64_t h = f.rotary / 2;
    for (const std::int64_t r : {std::int64_t(0), std::int64_t(1), std::int64_t(4095), std::int64_t(8999)}) {
        const double k = double(k0 + r);
        double squares = 0.0;
        for (std::int64_t n = 0; n < RopeScore::kSamples; ++n) {
            const std::vector<double> q = RopeScore::unitVector(params.seed, 2 * n, params.rope.headDim);
            const std::vector<double> v = RopeScore::unitVector(params.seed, 2 * n + 1, params.rope.headDim);
            double product = 0.0;
            for (std::int64_t i = 0; i < h; ++i) {
                const auto [s, c] = sinCos(k, f.inv[std::size_t(i)]);
                const double x = v[std::size_t(2 * i)], y = v[std::size_t(2 * i + 1)];
                product += q[std::size_t(2 * i)] * (x * c - y * s) + q[std::size_t(2 * i + 1)] * (x * s + y * c);
            }
            for (std::size_t j = std::size_t(2 * h); j < q.size(); ++j)
                product += q[j] * v[j];
            squares += product * product;
        }
        const double expected = squares / double(RopeScore::kSamples);
        QVERIFY2(std::abs(spectral[std::size_t(r)] - expected) <= 1e-11 * expected,
                 qPrintable(u"distance %1: %2 against %3"_s.arg(k).arg(spectral[std::size_t(r)]).arg(expected)));
    }

    constexpr std::int64_t kTableRows = 2000;
    RowMatrixXf block(kTableRows, RopeScore::kColumns), rows(kTableRows, RopeScore::kColumns);
    score.fill({k0, kTableRows, 0, RopeScore::kColumns}, block);
    for (std::int64_t r = 0; r < kTableRows; ++r) {
        auto row = rows.middleRows(r, 1);
        score.fill({k0 + r, 1, 0, RopeScore::kColumns}, row);
    }
    for (std::int64_t r = 0; r < kTableRows; ++r)
        for (int col = 0; col < RopeScore::kColumns; ++col)
            QVERIFY2(std::abs(block(r, col) - rows(r, col)) <= 2.4e-7 * std::abs(rows(r, col)),
                     qPrintable(u"distance %1, column %2: %3 against %4"_s.arg(k0 + r)
                                    .arg(col)
                                    .arg(block(r, col))
                                    .arg(rows(r, col))));
}

POSENC_TEST_GUILESS_MAIN(TestRopeScore)
} // namespace tst_ropescore
#include "tst_ropescore.moc"
