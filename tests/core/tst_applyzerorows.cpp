// posenc check --apply where rows of Y were zeroed after RoPE (a padding mask multiplied in, a
// kernel that never wrote them: ml-explore/mlx#3494): no rotation makes 0 of a nonzero row. They
// were unread and the rest called positions-out-of-order; now they are said as what they are, the
// other rows read at their own positions (or at them plus one offset, after a cache): unknown with
// nothing declared, cells-overwritten against a declared reference; no zero row read as turned.
// Y is HF's modeling_llama.py rotation in float32, written in ApplyRotations.h.
#include "ApplyRotations.h"
#include "support/TestMain.h"

#include "check/rope/ApplyCheck.h"

#include <QtTest>

namespace tst_applyzerorows {
using namespace posenc;
using namespace Qt::StringLiterals;
using namespace applyref;

class TestApplyZeroRows : public QObject
{
    Q_OBJECT

private slots:
    void zeroRowsOfYAreSaid_data()
    {
        QTest::addColumn<std::int64_t>("first");
        QTest::addColumn<std::int64_t>("count");
        QTest::newRow("the first 4 rows (left padding)") << std::int64_t(0) << std::int64_t(4);
        QTest::newRow("the last 12 rows (right padding)") << std::int64_t(52) << std::int64_t(12);
        QTest::newRow("rows 20..23") << std::int64_t(20) << std::int64_t(4);
    }

    void zeroRowsOfYAreSaid()
    {
        QFETCH(std::int64_t, first);
        QFETCH(std::int64_t, count);
        const Params llama = roperef::llama31();
        Applied a = applied(llama, from(0, 64), RopeLayout::Half, RopeLayout::Half);
        a.y.middleRows(first, count).setZero();
        const QString rows = u"rows %1..%2 (%3 of 64) of Y are 0"_s.arg(first).arg(first + count - 1).arg(count);
        const ApplyCheck::Result undeclared = std::get<ApplyCheck::Result>(ApplyCheck::check(a.x, a.y, {}));
        QCOMPARE(undeclared.verdict, CheckVerdict::Unknown);
        QVERIFY2(undeclared.mistakes.isEmpty(), qPrintable(undeclared.mistakes.join(u", "_s)));
        QVERIFY2(undeclared.diagnosis.contains(rows), qPrintable(undeclared.diagnosis));
        ApplyCheck::Declared declared;
        declared.reference = llama;
        const ApplyCheck::Result r = std::get<ApplyCheck::Result>(ApplyCheck::check(a.x, a.y, declared));
        QCOMPARE(r.verdict, CheckVerdict::Mistake);
        QCOMPARE(r.mistakes, QStringList {u"cells-overwritten"_s});
        QVERIFY2(r.diagnosis.contains(rows), qPrintable(r.diagnosis));
        // The zero rows are read at no position: said apart, not as turned rows.
        for (const ApplyCheck::PositionRun &run : undeclared.positions)
            if (run.row < first + count && run.row + run.count > first)
                QVERIFY2(run.position < 0, qPrintable(u"row %1 read at %2"_s.arg(run.row).arg(run.position)));
        // After 5 cached tokens (rows at 5..68), nothing declared: the offset and the zero rows both
        // said, no mistake (it was positions-out-of-order, a mistake).
        Applied after = applied(llama, from(5, 64), RopeLayout::Half, RopeLayout::Half);
        after.y.middleRows(first, count).setZero();
        const ApplyCheck::Result offset = std::get<ApplyCheck::Result>(ApplyCheck::check(after.x, after.y, {}));
        QVERIFY(offset.verdict != CheckVerdict::Mistake);
        QVERIFY(offset.mistakes.isEmpty());
        QVERIFY2(offset.diagnosis.contains(rows), qPrintable(offset.diagnosis));
        // Y whole: correct, the zero rows' check takes nothing from it.
        const Applied whole = applied(llama, from(0, 64), RopeLayout::Half, RopeLayout::Half);
        QCOMPARE(std::get<ApplyCheck::Result>(ApplyCheck::check(whole.x, whole.y, declared)).verdict,
                 CheckVerdict::Correct);
    }
};

POSENC_TEST_APPLESS_MAIN(TestApplyZeroRows)
} // namespace tst_applyzerorows
#include "tst_applyzerorows.moc"
