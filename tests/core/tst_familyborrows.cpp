// The rows a family reads of another family's group (FamilySpec::borrows): M-RoPE reads every row
// of RoPE's, 2-D RoPE RoPE's head_dim and rope_theta, M-RoPE's spatial_merge_size and the 2-D
// sin-cos family's grid. Under the borrowing family those rows are read (not idle) and checked as
// under their own; the other rows of the lending family stay idle, naming it.
#include "core/FamilyInference.h"
#include "core/FamilySpec.h"
#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "core/ParamUse.h"
#include "support/TestMain.h"

#include <QTest>

namespace tst_familyborrows {
using namespace posenc;
using namespace Qt::StringLiterals;

class TestFamilyBorrows : public QObject
{
    Q_OBJECT

private slots:
    void borrowedRowsAreReadByTheBorrowingFamily_data();
    void borrowedRowsAreReadByTheBorrowingFamily();
    void theSpecsNameWhatTheyBorrow();
    void aBorrowedParameterInfersTheFamily_data();
    void aBorrowedParameterInfersTheFamily();
};

void TestFamilyBorrows::borrowedRowsAreReadByTheBorrowingFamily_data()
{
    QTest::addColumn<QString>("encoding");
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("idle"); // -1: read; else the IdleReason::Code
    const int other = int(IdleReason::Code::OtherEncoding);
    // M-RoPE reads every row of RoPE's (FamilySpec::borrows), each as under rope: yarn's keys are
    // idle under the default type there too.
    QTest::newRow("mrope head-dim") << u"mrope"_s << u"head-dim"_s << -1;
    QTest::newRow("mrope rope-type") << u"mrope"_s << u"rope-type"_s << -1;
    QTest::newRow("mrope beta-fast") << u"mrope"_s << u"beta-fast"_s << int(IdleReason::Code::OtherRopeType);
    QTest::newRow("mrope grid") << u"mrope"_s << u"grid"_s << other;
    // 2-D RoPE reads RoPE's head_dim and theta alone, M-RoPE's merge size for the Qwen ViT, the grid.
    QTest::newRow("rope-2d head-dim") << u"rope-2d"_s << u"head-dim"_s << -1;
    QTest::newRow("rope-2d rope-theta") << u"rope-2d"_s << u"rope-theta"_s << -1;
    QTest::newRow("rope-2d rope-type") << u"rope-2d"_s << u"rope-type"_s << other;
    QTest::newRow("rope-2d spatial-merge-size") << u"rope-2d"_s << u"spatial-merge-size"_s << -1;
    QTest::newRow("rope-2d prompt") << u"rope-2d"_s << u"prompt"_s << other;
    QTest::newRow("rope-2d grid") << u"rope-2d"_s << u"grid"_s << -1;
    QTest::newRow("rope-2d axes-dim") << u"rope-2d"_s << u"axes-dim"_s << int(IdleReason::Code::FamilySetting);
    QTest::newRow("sincos-2d grid") << u"sincos-2d"_s << u"grid"_s << -1;
    QTest::newRow("sincos-2d head-dim") << u"sincos-2d"_s << u"head-dim"_s << other;
    QTest::newRow("sincos-2d interpolation-scale")
        << u"sincos-2d"_s << u"interpolation-scale"_s << int(IdleReason::Code::FamilySetting);
    QTest::newRow("rope spatial-merge-size") << u"rope"_s << u"spatial-merge-size"_s << other;
}

void TestFamilyBorrows::borrowedRowsAreReadByTheBorrowingFamily()
{
    QFETCH(QString, encoding);
    QFETCH(QString, key);
    QFETCH(int, idle);
    Params p;
    QVERIFY(!ParamText::set(p, u"encoding"_s, encoding));
    QVERIFY(p.isValid());
    const auto reason = ParamUse::idle(p, key);
    if (idle < 0) {
        // QVERIFY2 builds its message whatever the outcome: the reason is read only when there is one.
        const auto why = ParamUse::reason(p, key);
        QVERIFY2(!reason, qPrintable(why ? why->why : QString()));
    } else
        QCOMPARE(reason, std::optional(IdleReason::Code(idle)));
    // The rows keep their family: the control panel shows them under their own heading.
    if (key == u"head-dim"_s)
        QCOMPARE(ParamTable::find(key)->family, std::optional(Encoding::Rope));
    // A borrowed row is checked under the borrowing family as under its own.
    if (key == u"head-dim"_s && idle < 0) {
        QVERIFY(!ParamText::set(p, key, u"7"_s));
        const QList<ParamError> errors = p.validate();
        QVERIFY(!errors.isEmpty());
        QCOMPARE(errors.front().key, u"head-dim"_s);
    }
    // Pixtral does not read the merge size: only the Qwen ViT orders its patches by merge blocks.
    if (key == u"spatial-merge-size"_s && encoding == u"rope-2d"_s) {
        QVERIFY(!ParamText::set(p, u"rope-2d-style"_s, u"pixtral"_s));
        QCOMPARE(ParamUse::idle(p, key), std::optional(IdleReason::Code::FamilySetting));
    }
}

void TestFamilyBorrows::theSpecsNameWhatTheyBorrow()
{
    const FamilySpec &mrope = Families::spec(Encoding::Mrope);
    QVERIFY(mrope.borrowsRow(Encoding::Rope, u"rope-type"_s));
    QVERIFY(!mrope.borrowsRow(Encoding::Rope2d));
    const FamilySpec &rope2d = Families::spec(Encoding::Rope2d);
    QVERIFY(rope2d.borrowsRow(Encoding::Rope, u"head-dim"_s));
    QVERIFY(!rope2d.borrowsRow(Encoding::Rope, u"rope-type"_s));
    QVERIFY(rope2d.borrowsRow(Encoding::Sincos2d, u"grid"_s));
    QVERIFY(!Families::spec(Encoding::Rope).borrowsRow(Encoding::Mrope));
}

void TestFamilyBorrows::aBorrowedParameterInfersTheFamily_data()
{
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<int>("quantity"); // -1: none
    QTest::addColumn<QString>("family"); // empty: none, or several
    // A borrowed row fits its own family and the borrowers; alone it is its own family's.
    QTest::newRow("head-dim alone") << QStringList {u"head-dim"_s} << -1 << u"rope"_s;
    QTest::newRow("grid alone") << QStringList {u"grid"_s} << -1 << u"sincos-2d"_s;
    QTest::newRow("head-dim and prompt") << QStringList {u"head-dim"_s, u"prompt"_s} << -1 << u"mrope"_s;
    QTest::newRow("grid and patch") << QStringList {u"grid"_s, u"patch"_s} << -1 << u"rope-2d"_s;
    QTest::newRow("grid, rope2d-cos") << QStringList {u"grid"_s} << int(Quantity::Rope2dCos) << u"rope-2d"_s;
    QTest::newRow("head-dim, mrope-cos") << QStringList {u"head-dim"_s} << int(Quantity::MropeCos) << u"mrope"_s;
    QTest::newRow("rope-type, rope2d-cos") << QStringList {u"rope-type"_s} << int(Quantity::Rope2dCos) << QString();
}

void TestFamilyBorrows::aBorrowedParameterInfersTheFamily()
{
    QFETCH(QStringList, keys);
    QFETCH(int, quantity);
    QFETCH(QString, family);
    QList<FamilyInference::Clue> clues;
    for (const QString &key : keys)
        clues.append(*FamilyInference::parameterClue(key, u"--"_s + key));
    if (quantity >= 0)
        clues.append(FamilyInference::quantityClue(Quantity(quantity), u"QUANTITY"_s));
    const FamilyInference::Outcome outcome = FamilyInference::infer(Params {}, clues);
    if (family.isEmpty()) {
        QVERIFY(!outcome.family);
        return;
    }
    QVERIFY(outcome.family);
    QCOMPARE(Families::word(*outcome.family), family);
}

POSENC_TEST_GUILESS_MAIN(TestFamilyBorrows)
} // namespace tst_familyborrows
#include "tst_familyborrows.moc"
