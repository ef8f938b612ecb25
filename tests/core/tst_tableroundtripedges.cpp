// posenc's own tables at the parameter rows' edges, checked as `posenc check FILE` checks them, with
// no family declared (issue "Nothing breaks on the edges", Deliver 2): never `mistake`, `learned`
// or `unknown`, always their own family. The edges: RoPE heads past 512 columns (1024 to 8192),
// float32 angles at far positions, d and L of 1 to 3, the scalings at the smallest heads they take,
// Sandwich's head dim 1, the 2-D grids' extremes. Short in CI; POSENC_ROUNDTRIP_LONG=1 adds the
// widest heads and longest tables, by hand (tst_tableroundtrip covers the common rows, declared).
#include "../support/Sanitizer.h"
#include "CheckTables.h"
#include "EngineTable.h"

#include "check/TableMatch.h"
#include "core/Engine.h"
#include "core/Quantity.h"

#include <QtTest>

using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(posenc::Params)

namespace {

bool longMode()
{
    return qEnvironmentVariableIsSet("POSENC_ROUNDTRIP_LONG");
}

RowMatrixXf written(const Params &params, const QString &quantity)
{
    const Engine engine(params);
    const Quantity q = *Quantities::fromName(quantity);
    const Shape shape = Quantities::shape(q, params);
    return testing::computeTable(engine, q, {0, shape.rows, 0, shape.cols});
}

Params rope(RopeType type, std::int64_t headDim, std::int64_t L, RopeLayout layout = RopeLayout::Half)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.rope.type = type;
    p.rope.headDim = headDim;
    p.dModel = std::max(p.dModel, headDim);
    p.rope.layout = layout;
    p.maxLen = L;
    return p;
}

} // namespace

class TestTableRoundTripEdges : public QObject
{
    Q_OBJECT

private slots:
    void ownTablesAreTheirFamilys_data()
    {
        QTest::addColumn<Params>("params");
        QTest::addColumn<QString>("quantity");
        // RoPE heads past 512 columns: the fit's parameters once kept d_model's default 512, which no
        // head of 1024 is valid under, and the cos table read as a sinusoid with its sines replaced.
        QList<std::int64_t> heads {1024, 2048};
        if (longMode())
            heads += {4096, 8192};
        for (const std::int64_t head : heads) {
            for (const RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved}) {
                for (const QString &q : {u"rope-cos"_s, u"rope-sin"_s}) {
                    const std::int64_t L = longMode() ? 4096 : 64;
                    QTest::addRow("%s head %lld %s L %lld", qPrintable(q), qlonglong(head),
                                  layout == RopeLayout::Half ? "half" : "interleaved", qlonglong(L))
                        << rope(RopeType::Default, head, L, layout) << q;
                }
            }
        }
    }
    void ownTablesAreTheirFamilys()
    {
        POSENC_SAMPLE_UNDER_SANITIZER();
        QFETCH(Params, params);
        QFETCH(QString, quantity);
        const QList<ParamError> errors = params.validate();
        QVERIFY2(errors.isEmpty(),
                 qPrintable(errors.isEmpty() ? QString() : errors.first().key + u": "_s + errors.first().problem));
        const Checked c = check(written(params, quantity));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        const QString report = m.diagnosis + u" | "_s + m.deviations + u" | "_s + m.notes.join(u" | "_s);
        QVERIFY2(m.verdict == CheckVerdict::Correct || m.verdict == CheckVerdict::Variant, qPrintable(report));
        QVERIFY2(m.family && *m.family == params.encoding, qPrintable(report));
    }
};

QTEST_APPLESS_MAIN(TestTableRoundTripEdges)
#include "tst_tableroundtripedges.moc"
