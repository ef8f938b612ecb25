// The encoding families' position terms in the engine: `none` and `rope` add nothing (X = s*E
// cell for cell), `learned` adds row p + offset of its table (checked against float64 sums written
// here), and each family has exactly the quantities it defines.
#include "core/Engine.h"
#include "core/FamilySpec.h"
#include "core/ParamText.h"
#include "support/TestMain.h"

#include "support/TestFamily.h"

#include <QTest>

#include <cmath>
#include <cstring>

namespace tst_encodings {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// A table whose cells say where they are: row r, column c holds r + c / 1000 (exact in float32
// for the sizes here), so a row read at the wrong offset shows.
std::shared_ptr<const PositionMatrix> numberedTable(std::int64_t rows, std::int64_t cols)
{
    auto m = std::make_shared<PositionMatrix>();
    m->values = RowMatrixXf::NullaryExpr(rows, cols, [](Eigen::Index r, Eigen::Index c) {
        return static_cast<float>(r) + static_cast<float>(c) / 1000.0f;
    });
    m->source = u"numbered.npy"_s;
    return m;
}

Params learned(std::int64_t rows, std::int64_t cols, std::int64_t offset, std::int64_t maxLen)
{
    Params p;
    p.encoding = Encoding::Learned;
    p.dModel = cols;
    p.maxLen = maxLen;
    p.learned.table = numberedTable(rows, cols);
    p.learned.offset = offset;
    p.dropout = 0.3;
    return p;
}

RowMatrixXf whole(const Engine &engine, Quantity q)
{
    const Shape s = engine.shape(q);
    return *engine.table(q, {0, s.rows, 0, s.cols});
}

bool bitEqual(const RowMatrixXf &a, const RowMatrixXf &b)
{
    return a.rows() == b.rows() && a.cols() == b.cols()
        && std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

} // namespace

class TestEncodings : public QObject
{
    Q_OBJECT

private slots:
    void noneInputIsTheScaledEmbeddings_data();
    void noneInputIsTheScaledEmbeddings();
    void noneHasNoPositionQuantities_data();
    void noneHasNoPositionQuantities();
    void learnedPeIsTheTableFromItsOffset();
    void learnedInputAddsTheTableRow();
    void learnedSimilarityIsTheTablesDotProducts();
    void learnedInConcatFillsTheLastColumns();
    void learnedHasNoFloat32Error();
    void learnedTableMustCoverOffsetAndLength();
};

void TestEncodings::noneInputIsTheScaledEmbeddings_data()
{
    QTest::addColumn<QString>("encoding");
    QTest::addColumn<QString>("compose");
    QTest::addColumn<QString>("mode");
    // A family that rotates queries and keys, or biases the attention scores, adds no term either:
    // X = s*E. Every family of the list without a term.
    for (const FamilySpec &family : Families::all()) {
        if (family.hasPositionTerm())
            continue;
        const QString encoding = family.word;
        QTest::addRow("%s sum", qPrintable(encoding)) << encoding << u"sum"_s << u"sum"_s;
        // compose is idle without a position term: concat gives the same X.
        QTest::addRow("%s concat", qPrintable(encoding)) << encoding << u"concat"_s << u"embedding"_s;
        QTest::addRow("%s masked-fill", qPrintable(encoding)) << encoding << u"sum"_s << u"masked-fill"_s;
    }
}

void TestEncodings::noneInputIsTheScaledEmbeddings()
{
    QFETCH(QString, encoding);
    QFETCH(QString, compose);
    QFETCH(QString, mode);
    Params p;
    QVERIFY(!ParamText::set(p, u"encoding"_s, encoding));
    p.dModel = 70;
    p.maxLen = 90;
    // The family's own parameters where its defaults do not fit d_model 70 (a rotary head within it).
    const TestFamily &family = TestFamilies::of(p.encoding);
    if (family.figureParams)
        p = family.figureParams(p);
    p.seqLen = 60;
    QVERIFY(!ParamText::set(p, u"compose"_s, compose));
    QVERIFY(!ParamText::set(p, u"dropout-mode"_s, mode));
    QVERIFY(p.isValid());
    const Engine engine(p);
    QCOMPARE(engine.shape(Quantity::Embedding), (Shape {90, 70}));
    const RowMatrixXf x = whole(engine, Quantity::Input);
    const RowMatrixXf sE = whole(engine, Quantity::Embedding);
    QVERIFY2(bitEqual(x, sE), "X differs from s*E");
    // The parts: all of X is s*E, the position part zero.
    RowMatrixXf e(90, 70), pe(90, 70);
    engine.inputParts({0, 90, 0, 70}, e, pe);
    QVERIFY(bitEqual(e, sE));
    QVERIFY(pe.isZero(0.0f));
    // Y is inverted dropout of s*E: each cell 0 or s*E / (1 - p), the padding rows of masked-fill 0.
    const RowMatrixXf y = whole(engine, Quantity::Output);
    const RowMatrixXf mask = whole(engine, Quantity::Mask);
    const float keep = engine.dropoutMask().keepProbability();
    for (Eigen::Index r = 0; r < y.rows(); ++r)
        for (Eigen::Index c = 0; c < y.cols(); ++c) {
            const float expected = mask(r, c) == 0.0f ? 0.0f : sE(r, c) / keep;
            QCOMPARE(y(r, c), expected);
        }
}

void TestEncodings::noneHasNoPositionQuantities_data()
{
    QTest::addColumn<QString>("encoding");
    for (const FamilySpec &family : Families::all())
        if (!family.hasPositionTerm())
            QTest::newRow(qPrintable(family.word)) << family.word;
}

void TestEncodings::noneHasNoPositionQuantities()
{
    QFETCH(QString, encoding);
    Params p;
    QVERIFY(!ParamText::set(p, u"encoding"_s, encoding));
    QVERIFY(p.isValid());
    QCOMPARE(p.peColumns(), std::int64_t(0));
    const Engine engine(p);
    for (const Quantity q : {Quantity::Pe, Quantity::Similarity, Quantity::Error}) {
        // RoPE's float32 error is its cos and sin from the float32 angle (the precision figure).
        if (q == Quantity::Error && p.encoding == Encoding::Rope)
            continue;
        const auto refusal = engine.check(q, {0, 1, 0, 1});
        QVERIFY2(refusal && refusal->contains(u"not defined"_s), qPrintable(Quantities::name(q)));
    }
    // Of the quantities every family shares, those of the embeddings and of X (a family may have
    // tables of its own besides).
    const QList<Quantity> everyFamilys = {Quantity::Pe,   Quantity::Embedding,  Quantity::Input, Quantity::Output,
                                          Quantity::Mask, Quantity::Similarity, Quantity::Error};
    QList<Quantity> shared = Quantities::available(p);
    shared.removeIf([&](Quantity q) { return !everyFamilys.contains(q); });
    QList<Quantity> expected = {Quantity::Embedding, Quantity::Input, Quantity::Output, Quantity::Mask};
    if (p.encoding == Encoding::Rope)
        expected.append(Quantity::Error);
    QCOMPARE(shared, expected);
}

void TestEncodings::learnedPeIsTheTableFromItsOffset()
{
    // RoBERTa's shape, scaled down: padding rows 0 and 1, position p at row p + 2.
    const Params p = learned(34, 12, 2, 32);
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    const Engine engine(p);
    QCOMPARE(engine.shape(Quantity::Pe), (Shape {32, 12}));
    const RowMatrixXf pe = whole(engine, Quantity::Pe);
    for (Eigen::Index r = 0; r < pe.rows(); ++r)
        for (Eigen::Index c = 0; c < pe.cols(); ++c)
            QCOMPARE(double(pe(r, c)), double(float(r + 2) + float(c) / 1000.0f));
    // Any block alone gives the same cells.
    RowMatrixXf block(5, 4);
    engine.computeBlock(Quantity::Pe, {20, 5, 7, 4}, block);
    QVERIFY(bitEqual(block, pe.block(20, 7, 5, 4)));
}

void TestEncodings::learnedInputAddsTheTableRow()
{
    const Params p = learned(40, 16, 3, 30);
    const Engine engine(p);
    const RowMatrixXf x = whole(engine, Quantity::Input);
    const RowMatrixXf sE = whole(engine, Quantity::Embedding);
    for (Eigen::Index r = 0; r < x.rows(); ++r)
        for (Eigen::Index c = 0; c < x.cols(); ++c) {
            const float expected = sE(r, c) + (float(r + 3) + float(c) / 1000.0f);
            QCOMPARE(x(r, c), expected);
        }
    // Threaded in tiles: the same bits.
    RowMatrixXf threaded(30, 16);
    QVERIFY(engine.compute(Quantity::Output, {0, 30, 0, 16}, threaded, {2, nullptr}));
    RowMatrixXf serial(30, 16);
    engine.computeBlock(Quantity::Output, {0, 30, 0, 16}, serial);
    QVERIFY(bitEqual(threaded, serial));
}

void TestEncodings::learnedSimilarityIsTheTablesDotProducts()
{
    const Params p = learned(20, 6, 1, 19);
    const Engine engine(p);
    const RowMatrixXf s = whole(engine, Quantity::Similarity);
    QCOMPARE(s.rows(), Eigen::Index(19));
    for (std::int64_t a = 0; a < 19; ++a)
        for (std::int64_t b = 0; b < 19; ++b) {
            double expected = 0.0;
            for (std::int64_t c = 0; c < 6; ++c)
                expected += (double(a + 1) + double(float(c) / 1000.0f)) * (double(b + 1) + double(float(c) / 1000.0f));
            QVERIFY2(std::abs(double(s(a, b)) - expected) <= 1e-6 * expected,
                     qPrintable(u"S(%1, %2) = %3, expected %4"_s.arg(a).arg(b).arg(s(a, b)).arg(expected)));
        }
}

void TestEncodings::learnedInConcatFillsTheLastColumns()
{
    Params p = learned(25, 5, 0, 25);
    p.dModel = 12;
    p.compose = Compose::Concat;
    p.peDims = 5;
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    const Engine engine(p);
    const RowMatrixXf x = whole(engine, Quantity::Input);
    const RowMatrixXf sE = whole(engine, Quantity::Embedding);
    QCOMPARE(sE.cols(), Eigen::Index(7));
    for (Eigen::Index r = 0; r < 25; ++r) {
        for (Eigen::Index c = 0; c < 7; ++c)
            QCOMPARE(x(r, c), sE(r, c));
        for (Eigen::Index c = 7; c < 12; ++c)
            QCOMPARE(x(r, c), float(r) + float(c - 7) / 1000.0f);
    }
}

void TestEncodings::learnedHasNoFloat32Error()
{
    const Engine engine(learned(10, 4, 0, 10));
    const auto refusal = engine.check(Quantity::Error, {0, 1, 0, 1});
    QVERIFY(refusal && refusal->contains(u"only the sinusoidal encoding"_s));
}

void TestEncodings::learnedTableMustCoverOffsetAndLength()
{
    Params p = learned(34, 12, 2, 33); // needs 35 rows
    const QList<ParamError> errors = p.validate();
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors[0].key, u"position-table"_s);
    QVERIFY2(errors[0].sentence().contains(u"34 rows"_s) && errors[0].sentence().contains(u"35"_s),
             qPrintable(errors[0].sentence()));
    p = learned(34, 12, 2, 32);
    p.dModel = 16; // the table has 12 columns
    QCOMPARE(p.validate().value(0).key, u"position-table"_s);
    p = learned(34, 12, 2, 32);
    p.learned.table.reset();
    QVERIFY(p.validate().value(0).sentence().contains(u"needed by encoding learned"_s));
    // A table under another encoding is kept and ignored.
    p = learned(34, 12, 2, 32);
    p.encoding = Encoding::Sinusoidal;
    p.dModel = 512;
    QVERIFY(p.isValid());
}

POSENC_TEST_GUILESS_MAIN(TestEncodings)
} // namespace tst_encodings
#include "tst_encodings.moc"
