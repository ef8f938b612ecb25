// The batch's position ids (BatchIds, the position-ids table) against the reference's own output,
// recorded with torch by tests/data/make_position_ids_fixture.py from transformers' generation
// (left and right padding, a mask with a hole, decoding after a prefill), its flattening collator
// and the varlen attention's document starts (packing), and Qwen2-VL's get_rope_index with an
// attention mask and its rope_deltas at decode.
#include "EngineTable.h"
#include "support/TestMain.h"

#include "core/Engine.h"
#include "core/ParamText.h"
#include "core/positions/BatchIds.h"
#include "core/positions/BatchTables.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace tst_positionids {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

QJsonArray cases()
{
    QFile file(QStringLiteral(POSENC_POSITION_IDS));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the fixture");
    return QJsonDocument::fromJson(file.readAll()).object().value(u"cases"_s).toArray();
}

RowMatrixXf matrixOf(const QJsonArray &rows)
{
    RowMatrixXf m(rows.size(), rows.first().toArray().size());
    for (qsizetype r = 0; r < rows.size(); ++r) {
        const QJsonArray row = rows[r].toArray();
        for (qsizetype c = 0; c < row.size(); ++c)
            m(r, c) = float(row[c].toDouble());
    }
    return m;
}

Params paramsOf(const QJsonObject &testCase)
{
    Params p;
    p.dropout = 0.0;
    const QJsonObject given = testCase.value(u"params"_s).toObject();
    for (const QString &key : {u"encoding"_s, u"max-len"_s}) {
        if (given.contains(key))
            ParamText::set(p, key, given.value(key).toString());
    }
    for (auto it = given.begin(); it != given.end(); ++it) {
        if (it.key() == u"attention-mask"_s) {
            p.batch.mask = std::make_shared<const BatchTable>(
                BatchTables::fromMatrix(matrixOf(testCase.value(u"mask"_s).toArray()), true, u"mask"_s));
        } else if (const auto error = ParamText::set(p, it.key(), it.value().toString())) {
            qFatal("%s: %s", qPrintable(it.key()), qPrintable(error->sentence()));
        }
    }
    return p;
}

QString name(const QJsonObject &testCase)
{
    return testCase.value(u"name"_s).toString();
}

} // namespace

class TestPositionIds : public QObject
{
    Q_OBJECT

private slots:
    void equalsTheReference_data()
    {
        QTest::addColumn<QJsonObject>("testCase");
        for (const QJsonValue &c : cases())
            QTest::newRow(qPrintable(name(c.toObject()))) << c.toObject();
    }
    // Every cell, padding included, equals the reference's; the table holds the same ids.
    void equalsTheReference()
    {
        QFETCH(QJsonObject, testCase);
        const Params p = paramsOf(testCase);
        const auto problems = p.validate();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.value(0).sentence()));
        const Engine engine(p);
        const BatchIds &ids = engine.source<BatchIds>();
        QVERIFY(!ids.problem());
        // M-RoPE's ids as the model reads them: the collator's [1, L] of a text pack expanded to
        // t, h and w by Qwen2VLTextModel.forward ("expanded"), else get_rope_index's [3, B, L].
        const QJsonArray expected
            = testCase.value(testCase.contains(u"expanded"_s) ? u"expanded"_s : u"ids"_s).toArray();
        const bool threeAxes = ids.axes() == 3;
        const std::int64_t rows = threeAxes ? expected.first().toArray().size() : expected.size();
        QCOMPARE(ids.layout().rows(), rows);
        const Shape shape = engine.shape(Quantity::PositionIds);
        const RowMatrixXf table = testing::computeTable(engine, Quantity::PositionIds, {0, shape.rows, 0, shape.cols});
        for (int axis = 0; axis < ids.axes(); ++axis) {
            for (std::int64_t b = 0; b < rows; ++b) {
                const QJsonArray row = threeAxes ? expected[axis].toArray()[b].toArray() : expected[b].toArray();
                QCOMPARE(std::int64_t(row.size()), p.maxLen);
                for (std::int64_t c = 0; c < p.maxLen; ++c) {
                    const auto want = row[c].toInteger();
                    if (ids.id(IdsChoice::Reference, b, c, axis) != want || table(axis * rows + b, c) != float(want))
                        QFAIL(qPrintable(u"axis %1 row %2 column %3: %4, the reference %5"_s.arg(axis)
                                             .arg(b)
                                             .arg(c)
                                             .arg(ids.id(IdsChoice::Reference, b, c, axis))
                                             .arg(want)));
                }
            }
        }
        if (testCase.contains(u"rope_deltas"_s)) {
            const QJsonArray deltas = testCase.value(u"rope_deltas"_s).toArray();
            for (std::int64_t b = 0; b < rows; ++b)
                QCOMPARE(ids.ropeDelta(b), deltas[b].toInteger());
        }
    }

    // The lengths and documents of each text, whatever was read before it (the last text read is
    // kept: the window reads one batch's text many times a change).
    void eachTextParsesAsItself()
    {
        using Lengths = std::vector<std::int64_t>;
        for (int round = 0; round < 2; ++round) {
            const auto left = BatchLayout::parseLengths(u"left:5,8,3"_s);
            QVERIFY(std::holds_alternative<BatchLayout::Lengths>(left));
            QCOMPARE(std::get<BatchLayout::Lengths>(left).lengths, (Lengths {5, 8, 3}));
            QVERIFY(std::get<BatchLayout::Lengths>(left).side == BatchLayout::Side::Left);
            const auto right = BatchLayout::parseLengths(u"right:7"_s);
            QCOMPARE(std::get<BatchLayout::Lengths>(right).lengths, (Lengths {7}));
            QVERIFY(std::get<BatchLayout::Lengths>(right).side == BatchLayout::Side::Right);
            QCOMPARE(std::get<QString>(BatchLayout::parseLengths(u"left:5,0"_s)),
                     u"'0' is not a length of at least 1"_s);
            QCOMPARE(std::get<std::vector<Lengths>>(BatchLayout::parsePacked(u"3,4,2/5,4"_s)),
                     (std::vector<Lengths> {{3, 4, 2}, {5, 4}}));
            QCOMPARE(std::get<std::vector<Lengths>>(BatchLayout::parsePacked(u"9"_s)), (std::vector<Lengths> {{9}}));
        }
    }

    void documentsWhereTheVarlenAttentionReadsThem_data()
    {
        QTest::addColumn<QJsonObject>("testCase");
        for (const QJsonValue &c : cases()) {
            if (c.toObject().contains(u"cu_seq_lens"_s))
                QTest::newRow(qPrintable(name(c.toObject()))) << c.toObject();
        }
    }
    // Each document starts where prepare_fa_kwargs_from_position_ids puts a cu_seq_lens entry, and
    // its tokens are find_packed_sequence_indices' sequence.
    void documentsWhereTheVarlenAttentionReadsThem()
    {
        QFETCH(QJsonObject, testCase);
        const Params p = paramsOf(testCase);
        const BatchLayout layout(p);
        QList<std::int64_t> starts;
        for (const BatchSegment &s : layout.row(0)) {
            if (s.isReal())
                starts.append(s.start);
        }
        starts.append(p.maxLen);
        QList<std::int64_t> expected;
        for (const QJsonValue &v : testCase.value(u"cu_seq_lens"_s).toArray())
            expected.append(v.toInteger());
        QCOMPARE(starts, expected);
        const QJsonArray sequences = testCase.value(u"sequence_indices"_s).toArray().first().toArray();
        for (std::int64_t c = 0; c < p.maxLen; ++c)
            QCOMPARE(layout.segmentAt(0, c).document, sequences[c].toInteger());
        QVERIFY(layout.blockMask(IdsChoice::Reference));
    }
};

POSENC_TEST_GUILESS_MAIN(TestPositionIds)
} // namespace tst_positionids
#include "tst_positionids.moc"
