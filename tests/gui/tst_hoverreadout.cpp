// The hover readout of a cell: every part of X and Y at that cell, against float64 values written
// here (the PE from its definition, s·E from a known matrix, X and Y from the dropout rules).
#include "gui/HoverReadout.h"
#include "support/TestMain.h"

#include "../core/Reference.h"
#include "../support/Sincos2dReference.h"

#include "core/FamilySpec.h"

#include <QTest>

#include <cmath>

namespace tst_hoverreadout {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// E[p, j] = 0.25 + 0.01 p - 0.03 j: known to the test, unlike a random draw.
double knownE(std::int64_t p, std::int64_t j)
{
    return double(0.25f + 0.01f * float(p) - 0.03f * float(j));
}

std::shared_ptr<const EmbeddingMatrix> knownMatrix(std::int64_t rows, std::int64_t cols)
{
    auto m = std::make_shared<EmbeddingMatrix>();
    m->values = RowMatrixXf::NullaryExpr(
        rows, cols, [](Eigen::Index r, Eigen::Index c) { return 0.25f + 0.01f * float(r) - 0.03f * float(c); });
    m->source = u"known.npy"_s;
    return m;
}

QString num(double value)
{
    return QString::number(value, 'g', 6);
}

} // namespace

class TestHoverReadout : public QObject
{
    Q_OBJECT

private slots:
    void cellPartsAgainstFloat64_data();
    void cellPartsAgainstFloat64();
    void readsEveryPartAtOnce();
    void concatNumbersXsColumns();
    void rowsThatDropoutLeavesAlone_data();
    void rowsThatDropoutLeavesAlone();
    void embeddingModeKeepsThePe();
    void theFiguresOwnValueIsShownOnce();
    void splitLayoutPairs();
    void columnOnlyPointHasNoPosition();
    void eachFamilyWordsItsOwnCell_data();
    void eachFamilyWordsItsOwnCell();
};

void TestHoverReadout::cellPartsAgainstFloat64_data()
{
    QTest::addColumn<int>("layout");
    QTest::addColumn<int>("angles");
    QTest::addColumn<int>("compose");
    QTest::addColumn<double>("dropout");
    QTest::addColumn<int>("position");
    QTest::addColumn<int>("column"); // of X
    const auto row
        = [](const char *name, Layout layout, Angles angles, Compose compose, double p, int position, int column) {
              QTest::newRow(name) << int(layout) << int(angles) << int(compose) << p << position << column;
          };
    row("interleaved cos", Layout::Interleaved, Angles::Exact, Compose::Sum, 0.0, 37, 5);
    row("interleaved sin, far", Layout::Interleaved, Angles::Exact, Compose::Sum, 0.0, 4000, 2);
    row("split cos", Layout::Split, Angles::Exact, Compose::Sum, 0.0, 21, 13);
    row("float32 angles", Layout::Interleaved, Angles::Float32, Compose::Sum, 0.0, 3001, 1);
    row("concat PE part", Layout::Interleaved, Angles::Exact, Compose::Concat, 0.0, 9, 14);
    row("concat s·E part", Layout::Interleaved, Angles::Exact, Compose::Concat, 0.0, 9, 3);
    row("p = 1: all dropped", Layout::Interleaved, Angles::Exact, Compose::Sum, 1.0, 12, 7);
    row("p = 0.3", Layout::Interleaved, Angles::Exact, Compose::Sum, 0.3, 12, 7);
}

void TestHoverReadout::cellPartsAgainstFloat64()
{
    QFETCH(int, layout);
    QFETCH(int, angles);
    QFETCH(int, compose);
    QFETCH(double, dropout);
    QFETCH(int, position);
    QFETCH(int, column);
    Params p;
    p.dModel = 16;
    p.maxLen = 4096;
    p.sinusoidal.layout = Layout(layout);
    p.sinusoidal.angles = Angles(angles);
    p.compose = Compose(compose);
    p.peDims = 6; // concat: X's columns 10..15 hold the PE
    p.scaleKind = ScaleKind::Custom;
    p.customScale = 2.0;
    p.dropout = dropout;
    p.embeddings = knownMatrix(p.maxLen, p.embeddingColumns());
    QVERIFY(p.isValid());
    const Engine engine(p);
    const auto c = HoverReadout::cell(engine, position, column);
    QVERIFY(c);
    QCOMPARE(c->position, std::int64_t(position));
    QCOMPARE(c->column, std::int64_t(column));

    const bool concat = p.compose == Compose::Concat;
    const std::int64_t k = concat ? 6 : 16;
    const std::int64_t peColumn = concat ? column - 10 : column;
    double pe = 0.0, sE = 0.0;
    if (peColumn >= 0) {
        QCOMPARE(c->peColumn, std::optional<std::int64_t>(peColumn));
        // The sinusoid words its cell: the pair, its frequency, and the angle as the table forms it.
        const auto role = reference::role(peColumn, k, p.sinusoidal.layout);
        const double w = reference::omega(role.pair, k, 10000.0);
        const QString function = role.isCos ? u"cos"_s : u"sin"_s;
        QCOMPARE(c->termWords.value(0),
                 u"pair %1 (%2): w = %3, λ = %4"_s.arg(role.pair)
                     .arg(function)
                     .arg(w, 0, 'g', 5)
                     .arg(2.0 * M_PI / w, 0, 'g', 5));
        if (p.sinusoidal.angles == Angles::Exact) {
            pe = reference::exactValue(position, peColumn, k, 10000.0, p.sinusoidal.layout);
            QVERIFY2(std::abs(double(c->pe) - pe) <= 1e-6, qPrintable(u"%1 against %2"_s.arg(c->pe).arg(pe)));
            QCOMPARE(c->termWords.value(1),
                     u"PE = %1 = %2(%3·w = %4 rad)"_s.arg(num(c->pe), function).arg(position).arg(num(position * w)));
        } else {
            pe = double(reference::float32AngleValue(position, peColumn, k, 10000.0, p.sinusoidal.layout));
            QVERIFY(std::abs(double(c->pe) - pe) <= 1e-6);
            QCOMPARE(c->termWords.value(1),
                     u"PE = %1 = %2(%3 rad: %4·w in float32)"_s
                         .arg(num(c->pe), function, num(double(float(position) * float(w))))
                         .arg(position));
        }
    } else {
        QVERIFY(!c->peColumn);
    }
    if (column < 16 - (concat ? 6 : 0)) {
        QCOMPARE(c->embeddingColumn, std::optional<std::int64_t>(column));
        QCOMPARE(double(c->embedding), knownE(position, column));
        sE = 2.0 * knownE(position, column);
        QVERIFY(std::abs(double(c->scaledEmbedding) - sE) <= 1e-6);
    } else {
        QVERIFY(!c->embeddingColumn);
    }
    QCOMPARE(c->scale, 2.0);
    QVERIFY(std::abs(double(c->x) - (sE + pe)) <= 1e-5);
    QCOMPARE(c->rule, DropoutMask::RowRule::Dropout);
    if (dropout == 0.0) {
        QCOMPARE(c->mask, 1.0f);
        QCOMPARE(c->y, c->x);
    } else if (dropout == 1.0) {
        QCOMPARE(c->mask, 0.0f);
        QCOMPARE(c->y, 0.0f);
    } else {
        QVERIFY(c->mask == 0.0f || c->mask == 1.0f);
        const double expected = c->mask == 1.0f ? (sE + pe) / (1.0 - dropout) : 0.0;
        QVERIFY(std::abs(double(c->y) - expected) <= 1e-5);
    }
    // Outside the tables: nothing.
    QVERIFY(!HoverReadout::cell(engine, p.maxLen, 0));
    QVERIFY(!HoverReadout::cell(engine, 0, p.dModel));
}

void TestHoverReadout::readsEveryPartAtOnce()
{
    Params p;
    p.dModel = 16;
    p.maxLen = 64;
    p.scaleKind = ScaleKind::Custom;
    p.customScale = 2.0;
    p.dropout = 0.0; // every cell kept: Y = X / (1 - 0)
    p.embeddings = knownMatrix(64, 16);
    const Engine engine(p);
    HoverPoint point;
    point.position = 37;
    point.column = 5; // pair 2, cos
    const QString text = HoverReadout::format(engine, point);
    // The numbers, against float64 (cellPartsAgainstFloat64 covers more cases) ...
    const auto c = HoverReadout::cell(engine, 37, 5);
    QVERIFY(c);
    const double w = reference::omega(2, 16, 10000.0);
    QVERIFY(std::abs(double(c->pe) - std::cos(37.0 * w)) <= 1e-6);
    QCOMPARE(double(c->scaledEmbedding), 2.0 * knownE(37, 5));
    QVERIFY(std::abs(double(c->x) - (2.0 * knownE(37, 5) + std::cos(37.0 * w))) <= 1e-6);
    QCOMPARE(c->y, c->x);
    // ... and the line, which names each with its formula.
    for (const QString &part :
         {u"position 37, column 5"_s,
          u"pair 2 (cos): w = %1, λ = %2"_s.arg(w, 0, 'g', 5).arg(2.0 * M_PI / w, 0, 'g', 5),
          u"PE = %1 = cos(37·w = %2 rad)"_s.arg(num(c->pe), num(37.0 * w)),
          u"s·E = 2 × %1 = %2"_s.arg(num(knownE(37, 5)), num(2.0 * knownE(37, 5))),
          u"X = s·E + PE = %1"_s.arg(num(c->x)), u"kept (M = 1): Y = X/(1 − p) = %1"_s.arg(num(c->y))})
        QVERIFY2(text.contains(part), qPrintable(text + u"\nlacks: "_s + part));
}

void TestHoverReadout::concatNumbersXsColumns()
{
    Params p;
    p.dModel = 100;
    p.compose = Compose::Concat;
    p.peDims = 20; // X columns 80..99 hold PE columns 0..19
    QCOMPARE(HoverReadout::peColumnOf(p, 79), std::nullopt);
    QCOMPARE(HoverReadout::peColumnOf(p, 83), std::optional<std::int64_t>(3));
    QCOMPARE(HoverReadout::xColumnOf(p, 3, true), std::int64_t(83));
    QCOMPARE(HoverReadout::xColumnOf(p, 3, false), std::int64_t(3));
    const Engine engine(p);
    HoverPoint point;
    point.position = 4;
    point.column = 10;
    QVERIFY(HoverReadout::format(engine, point).contains(u"position 4, column 10 of X = [s·E | PE]: s·E, no PE"_s));
    QVERIFY(HoverReadout::format(engine, point).contains(u"X = s·E = "_s));
    // A PE column (the curves, the PE table) reads as the column of X that holds it.
    point.column = 3;
    point.columnIsPe = true;
    const QString text = HoverReadout::format(engine, point);
    QVERIFY2(text.contains(u"column 83 of X = [s·E | PE]: PE column 3"_s), qPrintable(text));
    QVERIFY2(text.contains(u"pair 1 (cos): w = "_s) && text.contains(u"X = PE = "_s), qPrintable(text));
    QVERIFY(!text.contains(u"s·E ="_s));
}

void TestHoverReadout::rowsThatDropoutLeavesAlone_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<int>("position");
    QTest::addColumn<QString>("reads");
    Params p;
    p.dModel = 8;
    p.maxLen = 32;
    p.dropout = 0.5;
    Params masked = p;
    masked.dropoutMode = DropoutMode::MaskedFill;
    masked.seqLen = 20;
    QTest::newRow("padding row") << masked << 25
                                 << u"padding row (position ≥ seq_len 20), zeroed by masked-fill: Y = 0"_s;
    Params maskedEval = masked;
    maskedEval.training = false;
    QTest::newRow("padding row in evaluation") << maskedEval << 20 << u"zeroed by masked-fill: Y = 0"_s;
    Params protect = p;
    protect.dropoutMode = DropoutMode::ProtectSpecial;
    QTest::newRow("[SEP] at -1") << protect << 31 << u"special row, passed untouched: Y = X = "_s;
    Params evaluation = p;
    evaluation.training = false;
    QTest::newRow("evaluation") << evaluation << 3 << u"evaluation mode: Y = X = "_s;
}

void TestHoverReadout::rowsThatDropoutLeavesAlone()
{
    QFETCH(Params, params);
    QFETCH(int, position);
    QFETCH(QString, reads);
    const Engine engine(params);
    HoverPoint point;
    point.position = position;
    point.column = 2;
    const QString text = HoverReadout::format(engine, point);
    QVERIFY2(text.contains(reads), qPrintable(text));
    const auto c = HoverReadout::cell(engine, position, 2);
    if (reads.contains(u"Y = X"_s))
        QCOMPARE(c->y, c->x);
    else
        QCOMPARE(c->y, 0.0f);
}

void TestHoverReadout::embeddingModeKeepsThePe()
{
    Params p;
    p.dModel = 8;
    p.maxLen = 16;
    p.dropout = 1.0; // every cell of s·E dropped: Y = PE
    p.dropoutMode = DropoutMode::Embedding;
    const Engine engine(p);
    HoverPoint point;
    point.position = 6;
    point.column = 4;
    const QString text = HoverReadout::format(engine, point);
    const auto c = HoverReadout::cell(engine, 6, 4);
    QVERIFY(std::abs(double(c->y) - reference::exactValue(6, 4, 8, 10000.0, Layout::Interleaved)) <= 1e-6);
    QCOMPARE(c->y, c->pe);
    QVERIFY2(text.contains(u"dropped (M = 0): Y = PE = %1"_s.arg(num(c->y))), qPrintable(text));
}

void TestHoverReadout::theFiguresOwnValueIsShownOnce()
{
    Params p;
    p.dModel = 8;
    p.maxLen = 16;
    const Engine engine(p);
    HoverPoint point;
    point.position = 5;
    point.column = 1;
    point.value = 0.25;
    point.valueName = u"PE"_s;
    point.quantity = Quantity::Pe;
    const QString text = HoverReadout::format(engine, point);
    QVERIFY2(!text.contains(u"= 0.25"_s), qPrintable(text));
    QCOMPARE(text.count(u"  PE = "_s), 1);
    // A value that is not a part of the cell follows the parts.
    point.quantity = Quantity::Error;
    point.valueName = u"error"_s;
    point.value = 1.5e-7;
    QVERIFY(HoverReadout::format(engine, point).endsWith(u"error = 1.5e-7"_s));
}

void TestHoverReadout::splitLayoutPairs()
{
    Params p;
    p.dModel = 10;
    p.sinusoidal.layout = Layout::Split;
    const Engine engine(p);
    HoverPoint point;
    point.column = 7; // cos of pair 2 in the split layout (h = 5)
    QVERIFY(HoverReadout::format(engine, point).contains(u"pair 2 (cos)"_s));
    point.column = 4;
    QVERIFY(HoverReadout::format(engine, point).contains(u"pair 4 (sin)"_s));
}

void TestHoverReadout::columnOnlyPointHasNoPosition()
{
    HoverPoint point;
    point.hasPosition = false;
    point.column = 0;
    const QString text = HoverReadout::format(Engine(Params {}), point);
    QVERIFY2(text.startsWith(u"column 0"_s) && !text.contains(u"position 0"_s), qPrintable(text));
    QVERIFY(text.contains(u"pair 0 (sin)"_s));
}

// A cell of every family's X at position 37, column 5, read in the family's own words:
// the sinusoid's pair and angle, the learned table's row, the 2-D grid's patch and coordinate, and
// nothing of a position term where the family adds none.
void TestHoverReadout::eachFamilyWordsItsOwnCell_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<QStringList>("cell"); // parts the cell's line holds
    QTest::addColumn<QStringList>("column"); // parts the column's line holds, hovered without a position
    for (const FamilySpec &family : Families::all()) {
        Params p;
        p.encoding = family.encoding;
        p.maxLen = 64;
        p.dropout = 0.0;
        // d = 16 where the family adds a term to X; the others keep their own defaults (a RoPE
        // head of 128 needs a d_model that holds it).
        if (family.hasPositionTerm())
            p.dModel = 16;
        QStringList cell, column;
        if (family.encoding == Encoding::Sinusoidal) {
            const double w = reference::omega(2, 16, 10000.0);
            const QString pair = u"pair 2 (cos): w = %1, λ = %2"_s.arg(w, 0, 'g', 5).arg(2.0 * M_PI / w, 0, 'g', 5);
            cell = {pair, u"PE = %1 = cos(37·w = %2 rad)"_s.arg(num(std::cos(37.0 * w)), num(37.0 * w))};
            column = {pair};
        } else if (family.encoding == Encoding::Learned) {
            // T[r, j] = 0.5 + 0.001 r - 0.01 j, position p at row p + 2.
            auto table = std::make_shared<PositionMatrix>();
            table->values = RowMatrixXf::NullaryExpr(
                80, 16, [](Eigen::Index r, Eigen::Index c) { return 0.5f + 0.001f * float(r) - 0.01f * float(c); });
            table->source = u"known.npy"_s;
            p.learned.table = table;
            p.learned.offset = 2;
            cell = {u"PE = %1, row 39 of the position table"_s.arg(num(double(0.5f + 0.001f * 39.0f - 0.05f)))};
            column = {u"PE column 5"_s};
        } else if (family.encoding == Encoding::Sincos2d) {
            // Patch 37 of the 32 x 32 grid is row 1, column 5; column 5 of 16 is the cosine of the
            // column's coordinate at frequency 1, w = 10000^(-1/4).
            const double w = std::pow(10000.0, -0.25);
            const QString words = u"cos of the patch's column, frequency 1: ω = %1, λ = %2"_s.arg(w, 0, 'g', 5)
                                      .arg(2.0 * M_PI / w, 0, 'g', 5);
            cell = {u"patch 37 (row 1, column 5): "_s + words,
                    u"PE = %1 = cos(5·ω = %2 rad)"_s.arg(num(sincos2dref::table(p)(37, 5)), num(5.0 * w))};
            column = {words};
        } else {
            QVERIFY2(!family.hasPositionTerm(), qPrintable(family.word + u": a term without words in this test"_s));
            column = {u"no PE in this column"_s};
        }
        QVERIFY2(p.isValid(), qPrintable(family.word + u": "_s + p.validate().value(0).key));
        QTest::newRow(qPrintable(family.word)) << p << cell << column;
    }
}

void TestHoverReadout::eachFamilyWordsItsOwnCell()
{
    QFETCH(Params, params);
    QFETCH(QStringList, cell);
    QFETCH(QStringList, column);
    const Engine engine(params);
    HoverPoint point;
    point.position = 37;
    point.column = 5;
    const QString text = HoverReadout::format(engine, point);
    for (const QString &part : cell)
        QVERIFY2(text.contains(part), qPrintable(text + u"\nlacks: "_s + part));
    // Only the sinusoid has pairs of a frequency w, and a family without a term has no PE.
    if (params.encoding != Encoding::Sinusoidal)
        QVERIFY2(!text.contains(u"pair "_s) && !text.contains(u"·w"_s), qPrintable(text));
    if (!params.hasPositionTerm())
        QVERIFY2(!text.contains(u"PE"_s), qPrintable(text));
    point.hasPosition = false;
    const QString columnText = HoverReadout::format(engine, point);
    for (const QString &part : column)
        QVERIFY2(columnText.contains(part), qPrintable(columnText + u"\nlacks: "_s + part));
}

POSENC_TEST_GUILESS_MAIN(TestHoverReadout)
} // namespace tst_hoverreadout
#include "tst_hoverreadout.moc"
