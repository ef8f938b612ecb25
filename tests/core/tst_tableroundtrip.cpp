// posenc check identifies every table posenc table writes (issue "Nothing breaks", the round trip):
// each family's tables computed by the engine, as `posenc table` computes them, then checked as a
// file's rows are. The parameter rows' corners: d = 1, 2, odd d, L = 1, 2, 3, the largest factors,
// both layouts, both masks and directions, every rope_type, and each published form. A table is
// identified when the verdict is correct, the family and table are named, and the parameters
// named give the same table again. A table no formula can be told from (every cell 0) is unknown
// and says why. Short in CI; POSENC_ROUNDTRIP_LONG=1 adds the long sizes, by hand.
#include "../support/Sanitizer.h"
#include "CheckTables.h"
#include "EngineTable.h"
#include "support/TestMain.h"

#include "check/FamilyCheck.h"
#include "check/TableMatch.h"
#include "core/Engine.h"
#include "core/FamilySpec.h"
#include "core/Quantity.h"

#include "support/TestFamily.h"

#include <QtTest>

#include <cmath>

namespace tst_tableroundtrip {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

bool longMode()
{
    return qEnvironmentVariableIsSet("POSENC_ROUNDTRIP_LONG");
}

struct Case
{
    QString name;
    Params params;
    QString quantity;
    QString unknownBecause; // empty: identified
};

// The quantity `posenc table` writes a table the check names by its family's word of it: the term's
// "pe" for a sinusoid's and a 2-D sin-cos grid's.
QString quantityOf(const QString &table)
{
    return table == u"sinusoidal"_s || table == u"sincos-2d"_s ? u"pe"_s : table;
}

RowMatrixXf written(const Params &params, const QString &quantity)
{
    const Engine engine(params);
    const Quantity q = *Quantities::fromName(quantity);
    const Shape shape = Quantities::shape(q, params);
    return testing::computeTable(engine, q, {0, shape.rows, 0, shape.cols});
}

Params rope(RopeType type, std::int64_t headDim, double theta, std::int64_t L)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.rope.type = type;
    p.rope.headDim = headDim;
    p.rope.theta = theta;
    p.maxLen = L;
    return p;
}

// Each family's published forms, at a length their tables show.
QList<Case> publishedCases()
{
    QList<Case> cases;
    for (const FamilySpec &family : Families::all()) {
        if (!FamilyChecks::of(family.encoding).table || !FamilyChecks::of(family.encoding).table->publishedForms)
            continue;
        for (const std::int64_t cols : {64, 128, 256, 24, 512}) {
            for (const PublishedForm &form : FamilyChecks::of(family.encoding).table->publishedForms(cols)) {
                Params p = form.params;
                p.maxLen = family.encoding == Encoding::Rope ? 8192 : 1024;
                const QString quantity = quantityOf(form.table);
                cases.append(
                    {u"published: %1, %2 (%3 columns)"_s.arg(form.name, form.table).arg(cols), p, quantity, {}});
            }
        }
    }
    return cases;
}

// The table the match names, from its parameters, equals the one checked: what "identified" means.
void reproduces(const TableMatch &m, const RowMatrixXf &table)
{
    QVERIFY(m.params);
    const QString quantity = quantityOf(m.table);
    Params p = *m.params;
    p.maxLen = table.rows();
    const RowMatrixXf again = written(p, quantity);
    QCOMPARE(again.rows(), table.rows());
    QCOMPARE(again.cols(), table.cols());
    for (std::int64_t i = 0; i < table.rows(); ++i) {
        for (std::int64_t j = 0; j < table.cols(); ++j) {
            const float a = again(i, j), b = table(i, j);
            if (a == b)
                continue;
            QVERIFY2(std::fabs(a - b) <= 2.5e-7f * std::max(1.0f, std::fabs(b)) + float(m.tolerance.absolute),
                     qPrintable(u"row %1, column %2: %3 against %4"_s.arg(i).arg(j).arg(a).arg(b)));
        }
    }
}

} // namespace

class TestTableRoundTrip : public QObject
{
    Q_OBJECT

private slots:
    void tablesAreIdentified_data()
    {
        QTest::addColumn<Params>("params");
        QTest::addColumn<QString>("quantity");
        QTest::addColumn<QString>("unknownBecause");
        // Each family's tables over its rows' corners (tests/families/<family>/), then the published forms.
        QList<Case> cases;
        for (const TestFamily &family : TestFamilies::all())
            if (family.roundTrips)
                for (const TestRoundTrip &trip : family.roundTrips(longMode()))
                    cases.append({trip.name, trip.params, trip.quantity, trip.unknownBecause});
        cases += publishedCases();
        for (const Case &c : cases)
            QTest::newRow(qPrintable(c.name)) << c.params << c.quantity << c.unknownBecause;
    }
    void tablesAreIdentified()
    {
        POSENC_SAMPLE_UNDER_SANITIZER();
        QFETCH(Params, params);
        QFETCH(QString, quantity);
        QFETCH(QString, unknownBecause);
        const QList<ParamError> errors = params.validate();
        QVERIFY2(errors.isEmpty(),
                 qPrintable(errors.isEmpty() ? QString() : errors.first().key + u": "_s + errors.first().problem));
        const RowMatrixXf table = written(params, quantity);
        // The family named, as `posenc check --expect FAMILY` names it: a RoPE table at theta 10000
        // is also a sinusoid whose sines or cosines were replaced, which only a declaration tells.
        TableCheck::Declared declared;
        declared.family = params.encoding;
        const Checked c = check(table, StoredType::Float32, declared);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        const QString report = m.diagnosis + u" | "_s + m.deviations + u" | "_s + m.notes.join(u" | "_s);
        if (!unknownBecause.isEmpty()) {
            QVERIFY2(m.verdict != CheckVerdict::Correct, qPrintable(report));
            QVERIFY2((m.diagnosis + m.notes.join(u' ')).contains(unknownBecause), qPrintable(report));
            return;
        }
        // Correct for a published form (named), a variant at other parameters.
        const bool published = QByteArray(QTest::currentDataTag()).startsWith("published:");
        QVERIFY2(m.verdict == CheckVerdict::Correct || (!published && m.verdict == CheckVerdict::Variant),
                 qPrintable(report));
        QCOMPARE(m.correctAgainst.isEmpty(), m.verdict != CheckVerdict::Correct);
        if (QByteArray(QTest::currentDataTag()).contains("DeepSeek-V2"))
            QVERIFY2(m.correctAgainst.contains(u"DeepSeek-V3"_s), qPrintable(report));
        QCOMPARE(*m.family, params.encoding);
        QCOMPARE(quantityOf(m.table), quantity);
        reproduces(m, table);
    }

    // A caller names the reference (a family, its parameters, its table): the report is the same
    // as identify's, correct against the table's own parameters and a mistake at the cells that
    // deviate against others; a table the family does not have is refused.
    void expectComparesWithThoseParameters_data()
    {
        QTest::addColumn<Params>("params");
        QTest::addColumn<Params>("other");
        QTest::addColumn<QString>("quantity");
        Params sinusoid;
        sinusoid.dModel = 64;
        sinusoid.maxLen = 1024;
        Params base500 = sinusoid;
        base500.sinusoidal.base = 500.0;
        QTest::newRow("sinusoidal, base 500 expected") << sinusoid << base500 << u"pe"_s;
        Params llama = rope(RopeType::Llama3, 128, 500000.0, 4096);
        llama.rope.factor = 8.0;
        llama.rope.originalMaxLen = 8192;
        QTest::newRow("llama3, default expected")
            << llama << rope(RopeType::Default, 128, 500000.0, 4096) << u"rope-cos"_s;
        Params alibi;
        alibi.encoding = Encoding::Alibi;
        alibi.maxLen = 512;
        alibi.alibi = {16, 3, AlibiMask::Causal};
        Params head4 = alibi;
        head4.alibi.head = 4;
        QTest::newRow("alibi, another head expected") << alibi << head4 << u"alibi-bias"_s;
        Params t5;
        t5.encoding = Encoding::T5;
        t5.maxLen = 512;
        Params t5Short = t5;
        t5Short.t5.maxDistance = 64;
        QTest::newRow("t5, max_distance 64 expected") << t5 << t5Short << u"t5-bucket"_s;
        Params deberta;
        deberta.encoding = Encoding::Deberta;
        deberta.maxLen = 512;
        Params fewer = deberta;
        fewer.deberta = {128, 256};
        QTest::newRow("deberta, 128/256 expected") << deberta << fewer << u"deberta-bucket"_s;
        Params sandwich;
        sandwich.encoding = Encoding::Sandwich;
        sandwich.maxLen = 512;
        sandwich.sandwich = {12, 3, 64, SandwichMask::Causal};
        Params otherDim = sandwich;
        otherDim.sandwich.headDim = 66;
        QTest::newRow("sandwich, d 66 expected") << sandwich << otherDim << u"sandwich-bias"_s;
    }
    void expectComparesWithThoseParameters()
    {
        QFETCH(Params, params);
        QFETCH(Params, other);
        QFETCH(QString, quantity);
        const MatrixRows rows(std::make_shared<const RowMatrixXf>(written(params, quantity)), StoredType::Float32,
                              u"t"_s);
        const QString word = quantity == u"pe"_s ? u"sinusoidal"_s : quantity;
        const auto against = [&](const Params &p) {
            auto expected = TableCheck::expect(rows, p.encoding, p, word);
            TableMatch m = std::get<TableMatch>(expected);
            TableCheck::conclude(m, TableCheck::verify(m, rows, {}));
            return m;
        };
        const TableMatch same = against(params);
        QVERIFY2(same.verdict == CheckVerdict::Correct, qPrintable(same.diagnosis + u" | "_s + same.deviations));
        QCOMPARE(*same.family, params.encoding);
        QCOMPARE(same.table, word);
        const TableMatch wrong = against(other);
        QCOMPARE(wrong.verdict, CheckVerdict::Mistake);
        QVERIFY(!wrong.deviations.isEmpty());
        QVERIFY(*wrong.maxAbsError > 1e-4);
        QVERIFY(std::holds_alternative<QString>(TableCheck::expect(rows, params.encoding, params, u"nope"_s)));
        QVERIFY(std::holds_alternative<QString>(TableCheck::expect(rows, Encoding::None, params, word)));
    }
};

POSENC_TEST_APPLESS_MAIN(TestTableRoundTrip)
} // namespace tst_tableroundtrip
#include "tst_tableroundtrip.moc"
