// The families' test records (tests/support/TestFamily.h), which the shared tests iterate: one for
// each family of the product, each change a text of one of the family's own rows (every row it can
// write has one), each setting one the parameters accept, and each family's tables equal to its
// float64 references, cell by cell.
#include "core/Engine.h"
#include "core/ParamTable.h"
#include "support/TestMain.h"

#include "support/TestFamily.h"

#include <QTest>

#include <cmath>

namespace tst_testfamilies {
using namespace posenc;
using namespace Qt::StringLiterals;

class TestTestFamilies : public QObject
{
    Q_OBJECT

private slots:
    void everyFamilyHasItsRecord();
    void changesAreOnePerRowOfTheFamily_data();
    void changesAreOnePerRowOfTheFamily();
    void settingsAreValid_data();
    void settingsAreValid();
    void tablesMatchTheReferences_data();
    void tablesMatchTheReferences();
};

void TestTestFamilies::everyFamilyHasItsRecord()
{
    QCOMPARE(TestFamilies::all().size(), Families::all().size());
    for (qsizetype i = 0; i < Families::all().size(); ++i) {
        QCOMPARE(TestFamilies::all()[i].encoding, Families::all()[i].encoding);
        QCOMPARE(TestFamilies::all()[i].word, Families::all()[i].word);
    }
}

void TestTestFamilies::changesAreOnePerRowOfTheFamily_data()
{
    QTest::addColumn<int>("family");
    for (const TestFamily &family : TestFamilies::all())
        QTest::newRow(qPrintable(family.word)) << int(family.encoding);
}

void TestTestFamilies::changesAreOnePerRowOfTheFamily()
{
    QFETCH(int, family);
    const TestFamily &f = TestFamilies::of(Encoding(family));
    QStringList written;
    for (const ParamSpec &row : ParamTable::rows())
        if (f.rowKeys.contains(row.key) && row.kind != ParamKind::Matrix)
            written.append(row.key);
    QStringList changed;
    for (const auto &[key, text] : f.changes) {
        QVERIFY2(f.rowKeys.contains(key), qPrintable(key + u" is not a row of "_s + f.word));
        QVERIFY2(!changed.contains(key), qPrintable(key + u" changed twice"_s));
        changed.append(key);
        const Params before;
        const Params after = TestFamilies::applied(before, {{key, text}});
        QVERIFY2(!(after == before), qPrintable(key + u"="_s + text + u" changes nothing"_s));
    }
    for (const QString &key : written)
        QVERIFY2(changed.contains(key), qPrintable(f.word + u"'s row "_s + key + u" has no change"_s));
}

void TestTestFamilies::settingsAreValid_data()
{
    QTest::addColumn<int>("family");
    QTest::addColumn<TestSetting>("setting");
    for (const TestFamily &family : TestFamilies::all())
        for (const auto &[name, setting] : family.settings)
            QTest::newRow(qPrintable(family.word + u": "_s + name)) << int(family.encoding) << setting;
}

void TestTestFamilies::settingsAreValid()
{
    QFETCH(int, family);
    QFETCH(TestSetting, setting);
    Params base;
    base.dModel = 12;
    base.maxLen = 16;
    const Params p = TestFamilies::applied(base, setting);
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    QCOMPARE(int(p.encoding), family);
}

void TestTestFamilies::tablesMatchTheReferences_data()
{
    QTest::addColumn<int>("family");
    QTest::addColumn<int>("reference");
    for (const TestFamily &family : TestFamilies::all())
        for (qsizetype i = 0; i < family.references.size(); ++i)
            QTest::newRow(qPrintable(family.word + u": "_s + family.references[i].name))
                << int(family.encoding) << int(i);
}

void TestTestFamilies::tablesMatchTheReferences()
{
    QFETCH(int, family);
    QFETCH(int, reference);
    const TestReference &r = TestFamilies::of(Encoding(family)).references[reference];
    Params base;
    base.dModel = r.dModel;
    base.maxLen = r.maxLen;
    const Params p = TestFamilies::applied(base, r.setting);
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    const Engine engine(p);
    const Shape shape = engine.shape(r.quantity);
    QVERIFY(shape.rows > 0 && shape.cols > 0);
    const auto table = engine.table(r.quantity, {0, shape.rows, 0, shape.cols});
    QVERIFY(table);
    for (std::int64_t i = 0; i < shape.rows; ++i)
        for (std::int64_t j = 0; j < shape.cols; ++j) {
            const ReferenceCell want = r.cell(p, i, j);
            const float got = (*table)(i, j);
            const bool equal = std::isfinite(want.value)
                ? got == float(want.value) || std::fabs(double(got) - want.value) <= want.allowance
                : double(got) == want.value;
            QVERIFY2(equal,
                     qPrintable(u"(%1, %2): %3, expected %4 within %5"_s.arg(i)
                                    .arg(j)
                                    .arg(got)
                                    .arg(want.value, 0, 'g', 17)
                                    .arg(want.allowance)));
        }
}

POSENC_TEST_GUILESS_MAIN(TestTestFamilies)
} // namespace tst_testfamilies
#include "tst_testfamilies.moc"
