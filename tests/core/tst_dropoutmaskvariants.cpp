// Dropout's five variants of docs/ARCHITECTURE.md, The mathematics (sum, embedding, pe,
// protect-special, masked-fill) and their row rules: p = 0 and p = 1, evaluation mode, the
// embedding variant keeping the positions, the pe variant keeping the tokens (dropout(PE) + s·E
// against a float64 formula), the special rows passed through, the padding zeroed by
// masked_fill, and applyRow() following rowRule(), through DropoutMask and the Engine.

#include "DropoutTables.h"
#include "EngineTable.h"
#include "Reference.h"
#include "support/TestMain.h"

#include "core/DropoutMask.h"
#include "core/Engine.h"

#include <QTest>

#include <cmath>
#include <set>
#include <vector>

namespace tst_dropoutmaskvariants {
using namespace Qt::StringLiterals;
using namespace posenc;
using testing::cellText;
using testing::dropoutParams;
using testing::Parts;
using testing::partsOf;
using testing::wholeTable;

class TestDropoutMaskVariants : public QObject
{
    Q_OBJECT

private slots:
    void zeroProbabilityIsIdentity_data();
    void zeroProbabilityIsIdentity();
    void fullProbabilityGivesZeros_data();
    void fullProbabilityGivesZeros();
    void evaluationModeIsIdentity_data();
    void evaluationModeIsIdentity();
    void embeddingModeKeepsPositions_data();
    void embeddingModeKeepsPositions();
    void positionalModeKeepsTokens_data();
    void positionalModeKeepsTokens();
    void protectSpecialPassesRows_data();
    void protectSpecialPassesRows();
    void maskedFillZeroesPadding_data();
    void maskedFillZeroesPadding();
    void maskedFillMaskIsFixedOnPadding_data();
    void maskedFillMaskIsFixedOnPadding();
    void rowRules();
    void applyRowFollowsRules_data();
    void applyRowFollowsRules();
};

void TestDropoutMaskVariants::zeroProbabilityIsIdentity_data()
{
    QTest::addColumn<DropoutMode>("mode");
    QTest::newRow("sum") << DropoutMode::Sum;
    QTest::newRow("embedding") << DropoutMode::Embedding;
    QTest::newRow("pe") << DropoutMode::Positional;
    QTest::newRow("protect-special") << DropoutMode::ProtectSpecial;
    QTest::newRow("masked-fill, no padding") << DropoutMode::MaskedFill;
}

// p = 0: Y == X bit for bit and the mask is all ones.
void TestDropoutMaskVariants::zeroProbabilityIsIdentity()
{
    QFETCH(DropoutMode, mode);
    Params params = dropoutParams(0.0, 300, 65);
    params.dropoutMode = mode;
    const Engine engine(params);
    const QString difference
        = reference::firstBitDifference(wholeTable(engine, Quantity::Input), wholeTable(engine, Quantity::Output));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QVERIFY((wholeTable(engine, Quantity::Mask).array() == 1.0f).all());
}

void TestDropoutMaskVariants::fullProbabilityGivesZeros_data()
{
    QTest::addColumn<DropoutMode>("mode");
    QTest::newRow("sum") << DropoutMode::Sum;
    QTest::newRow("embedding") << DropoutMode::Embedding;
    QTest::newRow("pe") << DropoutMode::Positional;
    QTest::newRow("protect-special") << DropoutMode::ProtectSpecial;
}

// p = 1: nothing survives and nothing is divided by zero. Sum: all zeros; embedding: Y = PE;
// pe: Y = s·E; protect-special: the special rows are X, the rest zeros.
void TestDropoutMaskVariants::fullProbabilityGivesZeros()
{
    QFETCH(DropoutMode, mode);
    Params params = dropoutParams(1.0, 300, 65);
    params.dropoutMode = mode;
    QVERIFY(params.isValid());
    const Engine engine(params);
    const RowMatrixXf y = wholeTable(engine, Quantity::Output);
    const RowMatrixXf x = wholeTable(engine, Quantity::Input);
    const RowMatrixXf mask = wholeTable(engine, Quantity::Mask);
    const Parts parts = partsOf(engine);
    QVERIFY2(!y.array().isNaN().any(), "p = 1 must not produce NaN");
    for (std::int64_t r = 0; r < 300; ++r) {
        const bool special = mode == DropoutMode::ProtectSpecial && (r == 0 || r == 299);
        for (std::int64_t c = 0; c < 65; ++c) {
            float expected = 0.0f;
            if (special)
                expected = x(r, c);
            else if (mode == DropoutMode::Embedding)
                expected = parts.positional(r, c);
            else if (mode == DropoutMode::Positional)
                expected = parts.embedding(r, c);
            QVERIFY2(y(r, c) == expected && !std::isnan(y(r, c)),
                     qPrintable(cellText(r, c, u"Y"_s, expected, y(r, c))));
            QVERIFY2(mask(r, c) == (special ? 1.0f : 0.0f), qPrintable(cellText(r, c, u"mask"_s, special, mask(r, c))));
        }
    }
}

void TestDropoutMaskVariants::evaluationModeIsIdentity_data()
{
    QTest::addColumn<DropoutMode>("mode");
    QTest::addColumn<double>("p");
    for (const double p : {0.1, 1.0}) {
        QTest::addRow("sum p=%g", p) << DropoutMode::Sum << p;
        QTest::addRow("embedding p=%g", p) << DropoutMode::Embedding << p;
        QTest::addRow("pe p=%g", p) << DropoutMode::Positional << p;
        QTest::addRow("protect-special p=%g", p) << DropoutMode::ProtectSpecial << p;
    }
}

// Evaluation mode: Y == X bit for bit, the mask reads all ones.
void TestDropoutMaskVariants::evaluationModeIsIdentity()
{
    QFETCH(DropoutMode, mode);
    QFETCH(double, p);
    Params params = dropoutParams(p, 300, 65);
    params.dropoutMode = mode;
    params.training = false;
    const Engine engine(params);
    QVERIFY(!engine.dropoutMask().isActive());
    const QString difference
        = reference::firstBitDifference(wholeTable(engine, Quantity::Input), wholeTable(engine, Quantity::Output));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QVERIFY((wholeTable(engine, Quantity::Mask).array() == 1.0f).all());
}

void TestDropoutMaskVariants::embeddingModeKeepsPositions_data()
{
    QTest::addColumn<double>("p");
    QTest::addColumn<Compose>("compose");
    QTest::newRow("p=0.1 sum") << 0.1 << Compose::Sum;
    QTest::newRow("p=0.5 sum") << 0.5 << Compose::Sum;
    QTest::newRow("p=0.5 concat") << 0.5 << Compose::Concat;
}

// Mode embedding: Y = (kept ? s*E / keep : 0) + PE, bit for bit; every dropped cell equals the
// PE exactly; the mask bits are those of mode sum with the same seed, but for concat's PE
// columns, which dropout does not act on: their mask reads kept.
void TestDropoutMaskVariants::embeddingModeKeepsPositions()
{
    QFETCH(double, p);
    QFETCH(Compose, compose);
    Params params = dropoutParams(p, 400, 66);
    params.compose = compose;
    params.dropoutMode = DropoutMode::Embedding;
    const Engine engine(params);
    Params sumParams = params;
    sumParams.dropoutMode = DropoutMode::Sum;
    const Engine sumEngine(sumParams);
    const float keep = float(1.0 - p);
    const RowMatrixXf y = wholeTable(engine, Quantity::Output);
    const RowMatrixXf mask = wholeTable(engine, Quantity::Mask);
    const std::int64_t droppable = compose == Compose::Concat ? 66 - params.peColumns() : 66;
    QCOMPARE(params.droppableColumns(), (std::pair<std::int64_t, std::int64_t> {0, droppable}));
    QCOMPARE(reference::firstBitDifference(wholeTable(sumEngine, Quantity::Mask).leftCols(droppable),
                                           mask.leftCols(droppable)),
             QString());
    QVERIFY((mask.rightCols(66 - droppable).array() == 1.0f).all());
    const Parts parts = partsOf(engine);
    for (std::int64_t r = 0; r < 400; ++r)
        for (std::int64_t c = 0; c < 66; ++c) {
            const bool kept = mask(r, c) == 1.0f;
            const float e = parts.embedding(r, c);
            const float q = parts.positional(r, c);
            const float expected = (kept ? e / keep : 0.0f) + q;
            QVERIFY2(reference::sameBits(y(r, c), expected) || (expected == 0.0f && y(r, c) == 0.0f),
                     qPrintable(cellText(r, c, u"Y"_s, expected, y(r, c))));
            if (!kept)
                QVERIFY2(y(r, c) == q, qPrintable(cellText(r, c, u"dropped cell vs PE"_s, q, y(r, c))));
        }
}

void TestDropoutMaskVariants::protectSpecialPassesRows_data()
{
    QTest::addColumn<std::vector<std::int64_t>>("special");
    QTest::addColumn<std::int64_t>("seqLen"); // 0: unset
    QTest::addColumn<std::vector<std::int64_t>>("rows");
    QTest::newRow("default {0, -1}, L = 300")
        << std::vector<std::int64_t> {0, -1} << std::int64_t(0) << std::vector<std::int64_t> {0, 299};
    QTest::newRow("{0, -1}, seq_len 200")
        << std::vector<std::int64_t> {0, -1} << std::int64_t(200) << std::vector<std::int64_t> {0, 199};
    QTest::newRow("{0, 5, -2}, seq_len 100")
        << std::vector<std::int64_t> {0, 5, -2} << std::int64_t(100) << std::vector<std::int64_t> {0, 5, 98};
    QTest::newRow("{-100}, seq_len 100") << std::vector<std::int64_t> {-100} << std::int64_t(100)
                                         << std::vector<std::int64_t> {0};
    QTest::newRow("none") << std::vector<std::int64_t> {} << std::int64_t(0) << std::vector<std::int64_t> {};
}

// Mode protect-special: the special rows (negative counted from the end of seq_len) are X
// exactly, their mask all ones; every other row is exactly mode sum's with the same seed.
void TestDropoutMaskVariants::protectSpecialPassesRows()
{
    QFETCH(std::vector<std::int64_t>, special);
    QFETCH(std::int64_t, seqLen);
    QFETCH(std::vector<std::int64_t>, rows);
    Params params = dropoutParams(0.5, 300, 33);
    params.dropoutMode = DropoutMode::ProtectSpecial;
    params.special = special;
    if (seqLen > 0)
        params.seqLen = seqLen;
    QVERIFY2(params.isValid(), qPrintable(params.validate().value(0).sentence()));
    Params sumParams = params;
    sumParams.dropoutMode = DropoutMode::Sum;
    const Engine engine(params);
    const Engine sumEngine(sumParams);
    const RowMatrixXf x = wholeTable(engine, Quantity::Input);
    const RowMatrixXf y = wholeTable(engine, Quantity::Output);
    const RowMatrixXf mask = wholeTable(engine, Quantity::Mask);
    const RowMatrixXf ySum = wholeTable(sumEngine, Quantity::Output);
    const RowMatrixXf maskSum = wholeTable(sumEngine, Quantity::Mask);
    const std::set<std::int64_t> protectedRows(rows.begin(), rows.end());
    for (std::int64_t r = 0; r < 300; ++r) {
        const bool isProtected = protectedRows.count(r) > 0;
        QCOMPARE(engine.dropoutMask().rowRule(r),
                 isProtected ? DropoutMask::RowRule::PassThrough : DropoutMask::RowRule::Dropout);
        const RowMatrixXf expectedY
            = isProtected ? RowMatrixXf(x.middleRows(r, 1)) : RowMatrixXf(ySum.middleRows(r, 1));
        const RowMatrixXf expectedMask
            = isProtected ? RowMatrixXf(RowMatrixXf::Ones(1, 33)) : RowMatrixXf(maskSum.middleRows(r, 1));
        const QString dy = reference::firstBitDifference(expectedY, y.middleRows(r, 1), r);
        QVERIFY2(dy.isEmpty(), qPrintable((isProtected ? u"protected row, Y vs X: "_s : u"Y vs mode sum: "_s) + dy));
        const QString dm = reference::firstBitDifference(expectedMask, mask.middleRows(r, 1), r);
        QVERIFY2(dm.isEmpty(), qPrintable(u"mask: "_s + dm));
    }
}

void TestDropoutMaskVariants::maskedFillZeroesPadding_data()
{
    QTest::addColumn<std::int64_t>("seqLen");
    QTest::addColumn<double>("p");
    QTest::newRow("seq_len 1") << std::int64_t(1) << 0.25;
    QTest::newRow("seq_len 100") << std::int64_t(100) << 0.25;
    QTest::newRow("seq_len 299") << std::int64_t(299) << 0.25;
    QTest::newRow("seq_len 300 (no padding)") << std::int64_t(300) << 0.25;
    // masked_fill zeroes the padding whatever dropout then does, also at p = 0 and p = 1.
    QTest::newRow("seq_len 100, p = 0") << std::int64_t(100) << 0.0;
    QTest::newRow("seq_len 100, p = 1") << std::int64_t(100) << 1.0;
}

// Mode masked-fill (X.masked_fill(attention_mask == 0, 0), then dropout): rows >= seq_len are
// zero; the others are exactly mode sum's with the same seed.
void TestDropoutMaskVariants::maskedFillZeroesPadding()
{
    QFETCH(std::int64_t, seqLen);
    QFETCH(double, p);
    Params params = dropoutParams(p, 300, 41);
    params.dropoutMode = DropoutMode::MaskedFill;
    params.seqLen = seqLen;
    QVERIFY(params.isValid());
    Params sumParams = params;
    sumParams.dropoutMode = DropoutMode::Sum;
    const Engine engine(params);
    const Engine sumEngine(sumParams);
    const RowMatrixXf y = wholeTable(engine, Quantity::Output);
    const RowMatrixXf ySum = wholeTable(sumEngine, Quantity::Output);
    const RowMatrixXf mask = wholeTable(engine, Quantity::Mask);
    const RowMatrixXf maskSum = wholeTable(sumEngine, Quantity::Mask);
    QCOMPARE(reference::firstBitDifference(ySum.topRows(seqLen), y.topRows(seqLen)), QString());
    QCOMPARE(reference::firstBitDifference(maskSum.topRows(seqLen), mask.topRows(seqLen)), QString());
    for (std::int64_t r = seqLen; r < 300; ++r) {
        QCOMPARE(engine.dropoutMask().rowRule(r), DropoutMask::RowRule::Zero);
        for (std::int64_t c = 0; c < 41; ++c)
            QVERIFY2(y(r, c) == 0.0f, qPrintable(cellText(r, c, u"padding Y"_s, 0.0f, y(r, c))));
    }
}

void TestDropoutMaskVariants::maskedFillMaskIsFixedOnPadding_data()
{
    QTest::addColumn<bool>("training");
    QTest::addColumn<double>("p");
    QTest::newRow("training p = 0.3") << true << 0.3;
    QTest::newRow("training p = 0") << true << 0.0;
    QTest::newRow("training p = 1") << true << 1.0;
    QTest::newRow("evaluation") << false << 0.3;
}

// masked_fill zeroes the padding before any dice are thrown: the variant's mask reads 0 on every
// padding row (a fixed row, not random bits), in evaluation too, so that Y = 0 wherever the mask
// is 0; the sequence rows read as mode sum's mask (training) or all kept (evaluation).
void TestDropoutMaskVariants::maskedFillMaskIsFixedOnPadding()
{
    QFETCH(bool, training);
    QFETCH(double, p);
    Params params = dropoutParams(p, 120, 37);
    params.dropoutMode = DropoutMode::MaskedFill;
    params.seqLen = 70;
    params.training = training;
    Params sumParams = params;
    sumParams.dropoutMode = DropoutMode::Sum;
    const Engine engine(params);
    const RowMatrixXf mask = wholeTable(engine, Quantity::Mask);
    const RowMatrixXf y = wholeTable(engine, Quantity::Output);
    const RowMatrixXf x = wholeTable(engine, Quantity::Input);
    const RowMatrixXf sequenceMask = training ? wholeTable(Engine(sumParams), Quantity::Mask).topRows(70).eval()
                                              : RowMatrixXf(RowMatrixXf::Ones(70, 37));
    QCOMPARE(reference::firstBitDifference(sequenceMask, mask.topRows(70)), QString());
    for (std::int64_t r = 70; r < 120; ++r)
        for (std::int64_t c = 0; c < 37; ++c)
            QVERIFY2(mask(r, c) == 0.0f, qPrintable(cellText(r, c, u"padding mask"_s, 0.0f, mask(r, c))));
    for (std::int64_t r = 0; r < 120; ++r)
        for (std::int64_t c = 0; c < 37; ++c) {
            if (mask(r, c) == 0.0f)
                QVERIFY2(y(r, c) == 0.0f, qPrintable(cellText(r, c, u"Y where the mask drops"_s, 0.0f, y(r, c))));
            else if (!training)
                QVERIFY2(y(r, c) == x(r, c), qPrintable(cellText(r, c, u"evaluation Y"_s, x(r, c), y(r, c))));
        }
}

void TestDropoutMaskVariants::rowRules()
{
    Params params = dropoutParams(0.2, 50, 8);
    QCOMPARE(DropoutMask(params).rowRule(0), DropoutMask::RowRule::Dropout);
    QCOMPARE(DropoutMask(params).rowRule(49), DropoutMask::RowRule::Dropout);
    params.dropoutMode = DropoutMode::ProtectSpecial;
    params.special = {3, -2};
    QCOMPARE(DropoutMask(params).rowRule(3), DropoutMask::RowRule::PassThrough);
    QCOMPARE(DropoutMask(params).rowRule(48), DropoutMask::RowRule::PassThrough);
    QCOMPARE(DropoutMask(params).rowRule(0), DropoutMask::RowRule::Dropout);
    QCOMPARE(DropoutMask(params).rowRule(49), DropoutMask::RowRule::Dropout);
    params.dropoutMode = DropoutMode::MaskedFill;
    params.seqLen = 20;
    QCOMPARE(DropoutMask(params).rowRule(19), DropoutMask::RowRule::Dropout);
    QCOMPARE(DropoutMask(params).rowRule(20), DropoutMask::RowRule::Zero);
    QCOMPARE(DropoutMask(params).rowRule(49), DropoutMask::RowRule::Zero);
}

void TestDropoutMaskVariants::positionalModeKeepsTokens_data()
{
    QTest::addColumn<double>("p");
    QTest::addColumn<Compose>("compose");
    QTest::addColumn<std::int64_t>("dModel");
    QTest::newRow("p=0.1 sum, d 66") << 0.1 << Compose::Sum << std::int64_t(66);
    QTest::newRow("p=0.5 sum, d 67") << 0.5 << Compose::Sum << std::int64_t(67);
    QTest::newRow("p=0.9 sum, d 8") << 0.9 << Compose::Sum << std::int64_t(8);
    QTest::newRow("p=0.5 concat, d 66") << 0.5 << Compose::Concat << std::int64_t(66);
    QTest::newRow("p=0.3 concat, d 131") << 0.3 << Compose::Concat << std::int64_t(131);
}

// Mode pe, dropout on the PE alone: Y = s·E + M ⊙ PE / (1 − p), against that formula in float64
// from the parts (within float32's rounding of each operation), and bit for bit against the float
// operations s·E + PE / keep; every dropped cell is s·E exactly. The mask bits are those of mode sum
// with the same seed on the PE's columns; concat's s·E columns [0, d − k) read kept.
void TestDropoutMaskVariants::positionalModeKeepsTokens()
{
    QFETCH(double, p);
    QFETCH(Compose, compose);
    QFETCH(std::int64_t, dModel);
    Params params = dropoutParams(p, 400, dModel);
    params.compose = compose;
    params.dropoutMode = DropoutMode::Positional;
    QVERIFY(params.isValid());
    const Engine engine(params);
    Params sumParams = params;
    sumParams.dropoutMode = DropoutMode::Sum;
    const Engine sumEngine(sumParams);
    const RowMatrixXf y = wholeTable(engine, Quantity::Output);
    const RowMatrixXf mask = wholeTable(engine, Quantity::Mask);
    const std::int64_t first = compose == Compose::Concat ? dModel - params.peColumns() : 0;
    QCOMPARE(params.droppableColumns(), (std::pair<std::int64_t, std::int64_t> {first, dModel}));
    QCOMPARE(reference::firstBitDifference(wholeTable(sumEngine, Quantity::Mask).rightCols(dModel - first),
                                           mask.rightCols(dModel - first)),
             QString());
    QVERIFY((mask.leftCols(first).array() == 1.0f).all());
    const Parts parts = partsOf(engine);
    const float keep = float(1.0 - p);
    std::int64_t dropped = 0;
    for (std::int64_t r = 0; r < 400; ++r)
        for (std::int64_t c = 0; c < dModel; ++c) {
            const bool kept = mask(r, c) == 1.0f;
            const double se = parts.embedding(r, c);
            const double pe = parts.positional(r, c);
            const double formula = se + (kept ? pe / (1.0 - p) : 0.0);
            const double tolerance = 2.0 * std::ldexp(std::abs(se) + std::abs(pe) / (1.0 - p), -23);
            QVERIFY2(std::abs(y(r, c) - formula) <= tolerance,
                     qPrintable(cellText(r, c, u"Y"_s, static_cast<float>(formula), y(r, c))));
            const float expected = parts.embedding(r, c) + (kept ? parts.positional(r, c) / keep : 0.0f);
            QVERIFY2(reference::sameBits(y(r, c), expected) || (expected == 0.0f && y(r, c) == 0.0f),
                     qPrintable(cellText(r, c, u"Y"_s, expected, y(r, c))));
            if (!kept) {
                ++dropped;
                QVERIFY2(y(r, c) == parts.embedding(r, c),
                         qPrintable(cellText(r, c, u"dropped cell vs s·E"_s, parts.embedding(r, c), y(r, c))));
            }
        }
    QVERIFY(dropped > 0);
}

void TestDropoutMaskVariants::applyRowFollowsRules_data()
{
    QTest::addColumn<DropoutMode>("mode");
    QTest::addColumn<double>("p");
    for (const double p : {0.0, 0.3, 1.0}) {
        QTest::addRow("sum p=%g", p) << DropoutMode::Sum << p;
        QTest::addRow("embedding p=%g", p) << DropoutMode::Embedding << p;
        QTest::addRow("pe p=%g", p) << DropoutMode::Positional << p;
        QTest::addRow("protect-special p=%g", p) << DropoutMode::ProtectSpecial << p;
        QTest::addRow("masked-fill p=%g", p) << DropoutMode::MaskedFill << p;
    }
}

// applyRow() on synthetic parts: the arithmetic of each variant, from kept() and rowRule(),
// with X = s * E + PE formed in float.
void TestDropoutMaskVariants::applyRowFollowsRules()
{
    QFETCH(DropoutMode, mode);
    QFETCH(double, p);
    Params params = dropoutParams(p, 64, 40);
    params.dropoutMode = mode;
    params.seqLen = 50;
    params.special = {0, 7, -1};
    const DropoutMask mask(params);
    const float keep = float(1.0 - p);
    const float scale = 1.7f;
    std::vector<float> e(40), q(40), y(40);
    for (const std::int64_t r : {0, 1, 7, 30, 49, 50, 63}) {
        for (std::size_t c = 0; c < 40; ++c) {
            e[c] = float(std::sin(0.3 * double(c) + double(r))) * 3.0f;
            q[c] = float(std::cos(0.7 * double(c) - double(r)));
        }
        for (const auto &[col0, cols] : {std::pair<std::int64_t, std::int64_t> {0, 40}, {3, 17}}) {
            mask.applyRow(r, col0, cols, InputRow {e.data() + col0, scale, q.data() + col0}, y.data());
            for (std::int64_t k = 0; k < cols; ++k) {
                const std::int64_t c = col0 + k;
                const float se = scale * e[std::size_t(c)];
                const float x = se + q[std::size_t(c)];
                const bool kept = p == 0.0 || mask.kept(r, c);
                const bool special = r == 0 || r == 7 || r == 49;
                float expected = 0.0f;
                if (mode == DropoutMode::ProtectSpecial && special)
                    expected = x;
                else if (mode == DropoutMode::MaskedFill && r >= 50)
                    expected = 0.0f;
                else if (mode == DropoutMode::Embedding)
                    expected = (kept && p < 1.0 ? se / keep : 0.0f) + q[std::size_t(c)];
                else if (mode == DropoutMode::Positional)
                    expected = se + (kept && p < 1.0 ? q[std::size_t(c)] / keep : 0.0f);
                else
                    expected = kept && p < 1.0 ? x / keep : 0.0f;
                QVERIFY2(reference::sameBits(y[std::size_t(k)], expected)
                             || (expected == 0.0f && y[std::size_t(k)] == 0.0f),
                         qPrintable(cellText(r, c, u"applyRow"_s, expected, y[std::size_t(k)])));
            }
        }
    }
}

POSENC_TEST_GUILESS_MAIN(TestDropoutMaskVariants)
} // namespace tst_dropoutmaskvariants
#include "tst_dropoutmaskvariants.moc"
