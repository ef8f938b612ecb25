// What each token sees of its position under the reference's ids and a wrong choice
// (PositionEffect, the position-effect table), against float64 formulas written here: RoPE's
// relative score under a common shift of the ids is the same to rounding, and what reads the
// absolute position changes: the sinusoidal and learned tables' rows, dynamic NTK's frequencies at
// the batch's length, the float32 angles at large offsets, Llama 4's temperature and chunk.
#include "EngineTable.h"
#include "support/TestMain.h"

#include "core/Engine.h"
#include "core/FamilySpec.h"
#include "core/ParamText.h"
#include "core/positions/BatchIds.h"
#include "core/positions/PositionEffect.h"

#include <QTest>

#include <cmath>
#include <vector>

namespace tst_positioneffect {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

using Column = PositionEffect::Column;

Params with(std::initializer_list<std::pair<QString, QString>> values, bool check = true)
{
    Params p;
    p.dropout = 0.0;
    for (const auto &[key, text] : values) {
        if (const auto error = ParamText::set(p, key, text))
            qFatal("%s: %s", qPrintable(key), qPrintable(error->sentence()));
    }
    if (const auto problems = p.validate(); check && !problems.isEmpty())
        qFatal("%s", qPrintable(problems.first().key + u": "_s + problems.first().sentence()));
    return p;
}

struct Row
{
    std::vector<double> values;
    std::int64_t count = 0;
    double at(Column k, std::int64_t c) const { return values[std::size_t(k * count + c)]; }
};

Row effect(const Engine &engine, std::int64_t b)
{
    Row row;
    row.count = engine.params().maxLen;
    row.values.resize(std::size_t(PositionEffect::Columns * row.count));
    engine.source<PositionEffect>().values(b, 0, row.count, row.values.data());
    return row;
}

// RoPE's default frequencies, theta^(-2i/d).
std::vector<double> ropeFrequencies(double theta, int dim)
{
    std::vector<double> w;
    for (int i = 0; i < dim / 2; ++i)
        w.push_back(1.0 / std::pow(theta, 2.0 * i / dim));
    return w;
}

double score(const std::vector<double> &w, std::int64_t q, std::int64_t k)
{
    double sum = 0.0;
    for (const double wi : w)
        sum += std::cos(double(q - k) * wi);
    return sum / double(w.size());
}

// The angles float32 code forms: fl(fl(p) * fl(w)), each its own rounding.
double score32(const std::vector<double> &w, std::int64_t q, std::int64_t k)
{
    double sum = 0.0;
    for (const double wi : w) {
        const float a = float(q) * float(wi), b = float(k) * float(wi);
        sum += std::cos(double(a) - double(b));
    }
    return sum / double(w.size());
}

// The sinusoid's row p, d columns interleaved: sin(p w_i), cos(p w_i), w_i = 10000^(-2i/d).
std::vector<double> sinusoid(std::int64_t p, int d)
{
    std::vector<double> row;
    for (int j = 0; j < d; ++j) {
        const double w = 1.0 / std::pow(10000.0, 2.0 * (j / 2) / d);
        row.push_back(j % 2 == 0 ? std::sin(double(p) * w) : std::cos(double(p) * w));
    }
    return row;
}

} // namespace

class TestPositionEffect : public QObject
{
    Q_OBJECT

private slots:
    // A left-padded row under arange: every id shifted by the padding, RoPE's score against the
    // row's first token the same to the last bit, its float32 score as float32 code computes it.
    void ropeRelativeUnderAShift_data()
    {
        QTest::addColumn<QString>("batch");
        QTest::addColumn<QString>("maxLen");
        QTest::newRow("short") << u"left:5,8,3"_s << u"8"_s;
        QTest::newRow("32768 columns, 32758 of padding") << u"left:10,32768"_s << u"32768"_s;
    }
    void ropeRelativeUnderAShift()
    {
        QFETCH(QString, batch);
        QFETCH(QString, maxLen);
        const Params p = with({{u"encoding"_s, u"rope"_s},
                               {u"d-model"_s, u"64"_s},
                               {u"head-dim"_s, u"64"_s},
                               {u"max-len"_s, maxLen},
                               {u"batch"_s, batch},
                               {u"ids-choice"_s, u"arange-with-padding"_s}});
        const Engine engine(p);
        const std::vector<double> w = ropeFrequencies(10000.0, 64);
        const BatchLayout &layout = engine.source<BatchIds>().layout();
        for (std::int64_t b = 0; b < layout.rows(); ++b) {
            const Row row = effect(engine, b);
            const std::int64_t padding = p.maxLen - layout.realTokens(b);
            for (std::int64_t c = padding; c < p.maxLen; ++c) {
                const std::int64_t id = c - padding;
                QCOMPARE(row.at(Column::ReferenceId, c), double(id));
                QCOMPARE(row.at(Column::ChosenId, c), double(c));
                QCOMPARE(row.at(Column::ScoreReference, c), score(w, id, 0));
                QCOMPARE(row.at(Column::ScoreChosen, c), score(w, c, padding));
                QCOMPARE(row.at(Column::ScoreDifference, c), 0.0);
                const double f32 = score32(w, c, padding) - score32(w, id, 0);
                QCOMPARE(row.at(Column::Float32Difference, c), f32);
            }
        }
        // At 32758 positions of padding float32's angles part from the exact ones.
        if (p.maxLen == 32768) {
            const Row row = effect(engine, 0);
            QVERIFY(std::abs(row.at(Column::Float32Difference, 32767)) > 1e-6);
        }
    }

    // An engine at the frequencies of the one before reads the scores that one kept, and one at
    // others must not: each row, taken after an engine of other ids, of another batch and of another
    // theta, is still the formulas'.
    void scoresKeptAcrossEnginesAreTheirFrequencies()
    {
        const auto at = [](const QString &theta, const QString &batch, const QString &ids) {
            return with({{u"encoding"_s, u"rope"_s},
                         {u"d-model"_s, u"64"_s},
                         {u"head-dim"_s, u"64"_s},
                         {u"rope-theta"_s, theta},
                         {u"max-len"_s, u"40"_s},
                         {u"batch"_s, batch},
                         {u"ids-choice"_s, ids}});
        };
        const QList<Params> sequence = {
            at(u"10000"_s, u"left:40,31"_s, u"arange-with-padding"_s), at(u"10000"_s, u"left:40,31"_s, u"off-by-one"_s),
            at(u"10000"_s, u"left:40,25"_s, u"arange-with-padding"_s),
            at(u"500"_s, u"left:40,25"_s, u"arange-with-padding"_s), at(u"10000"_s, u"left:40,25"_s, u"off-by-one"_s)};
        for (const Params &p : sequence) {
            const Engine engine(p);
            const std::vector<double> w = ropeFrequencies(p.rope.theta, 64);
            const BatchIds &ids = engine.source<BatchIds>();
            for (std::int64_t b = 0; b < ids.layout().rows(); ++b) {
                const Row row = effect(engine, b);
                const std::int64_t first = p.maxLen - ids.layout().realTokens(b);
                const std::int64_t key = ids.id(p.batch.ids, b, first);
                for (std::int64_t c = first; c < p.maxLen; ++c) {
                    const std::int64_t id = c - first, chosen = ids.id(p.batch.ids, b, c);
                    QCOMPARE(row.at(Column::ChosenId, c), double(chosen));
                    QCOMPARE(row.at(Column::ScoreReference, c), score(w, id, 0));
                    QCOMPARE(row.at(Column::ScoreChosen, c), score(w, chosen, key));
                    QCOMPARE(row.at(Column::Float32Difference, c), score32(w, chosen, key) - score32(w, id, 0));
                }
            }
        }
    }

    // Dynamic NTK's base follows the batch's length, torch.max(position_ids) + 1: 30 under the
    // reference, 64 under arange; past original-max-len 16 each gives its own frequencies.
    void dynamicLength()
    {
        const Params p = with({{u"encoding"_s, u"rope"_s},
                               {u"d-model"_s, u"16"_s},
                               {u"head-dim"_s, u"16"_s},
                               {u"max-len"_s, u"64"_s},
                               {u"rope-type"_s, u"dynamic"_s},
                               {u"rope-factor"_s, u"2"_s},
                               {u"original-max-len"_s, u"16"_s},
                               {u"batch"_s, u"left:20,30"_s},
                               {u"ids-choice"_s, u"arange-with-padding"_s}});
        const Engine engine(p);
        const auto frequencies = [](double seq) {
            // _compute_dynamic_ntk_parameters: theta * (f * seq / L0 - (f - 1))^(d / (d - 2))
            const double base = 10000.0 * std::pow(2.0 * seq / 16.0 - 1.0, 16.0 / 14.0);
            return ropeFrequencies(base, 16);
        };
        const Row row = effect(engine, 1);
        for (std::int64_t c = 34; c < 64; ++c) {
            QCOMPARE(row.at(Column::ScoreReference, c), score(frequencies(30), c - 34, 0));
            QCOMPARE(row.at(Column::ScoreChosen, c), score(frequencies(64), c, 34));
        }
        QVERIFY(std::abs(row.at(Column::ScoreDifference, 63)) > 1e-3);
    }

    // The sinusoid's rows: ‖PE[c] − PE[c − padding]‖ under arange, in float32 cells.
    void sinusoidalTerm()
    {
        const Params p = with({{u"encoding"_s, u"sinusoidal"_s},
                               {u"d-model"_s, u"32"_s},
                               {u"max-len"_s, u"40"_s},
                               {u"batch"_s, u"left:25"_s},
                               {u"ids-choice"_s, u"arange-with-padding"_s}});
        const Engine engine(p);
        const Row row = effect(engine, 0);
        for (std::int64_t c = 15; c < 40; ++c) {
            const auto a = sinusoid(c, 32), r = sinusoid(c - 15, 32);
            double squares = 0.0, product = 0.0;
            const auto k = sinusoid(0, 32), kc = sinusoid(15, 32);
            double chosen = 0.0;
            for (int j = 0; j < 32; ++j) {
                squares += (a[std::size_t(j)] - r[std::size_t(j)]) * (a[std::size_t(j)] - r[std::size_t(j)]);
                product += r[std::size_t(j)] * k[std::size_t(j)];
                chosen += a[std::size_t(j)] * kc[std::size_t(j)];
            }
            QVERIFY(std::abs(row.at(Column::TermDifference, c) - std::sqrt(squares)) < 1e-5);
            // PE·PE is relative for whole sin/cos pairs: the same under the shift, to float32's rounding.
            QVERIFY(std::abs(row.at(Column::ScoreReference, c) - product) < 1e-5);
            QVERIFY(std::abs(row.at(Column::ScoreChosen, c) - chosen) < 1e-5);
            QVERIFY(std::abs(row.at(Column::ScoreDifference, c)) < 1e-5);
        }
        QCOMPARE(row.at(Column::Real, 14), 0.0);
        QCOMPARE(row.at(Column::TermDifference, 14), 0.0);
    }

    // A learned table: its rows at the chosen id against the reference's; a row the table lacks is NaN.
    void learnedTerm()
    {
        Params p = with({{u"encoding"_s, u"learned"_s},
                         {u"d-model"_s, u"4"_s},
                         {u"max-len"_s, u"6"_s},
                         {u"batch"_s, u"right:6,3"_s},
                         {u"ids-choice"_s, u"off-by-one"_s}},
                        false);
        auto table = std::make_shared<PositionMatrix>();
        table->values
            = RowMatrixXf::NullaryExpr(6, 4, [](Eigen::Index r, Eigen::Index c) { return float(r * 10 + c); });
        p.learned.table = table;
        QVERIFY(p.validate().isEmpty());
        const Engine engine(p);
        const Row full = effect(engine, 0), part = effect(engine, 1);
        // Rows r and r + 1 differ by 10 in each of 4 columns: ‖·‖ = 20.
        for (std::int64_t c = 0; c < 5; ++c)
            QCOMPARE(full.at(Column::TermDifference, c), 20.0);
        QVERIFY(std::isnan(full.at(Column::TermDifference, 5))); // id 6: the table has no row 6
        for (std::int64_t c = 0; c < 3; ++c)
            QCOMPARE(part.at(Column::TermDifference, c), 20.0);
        // PE[q]·PE[k] against the first token: row c times row 0, and row c + 1 times row 1.
        const auto dot = [](std::int64_t a, std::int64_t b) {
            double s = 0.0;
            for (int j = 0; j < 4; ++j)
                s += double(a * 10 + j) * double(b * 10 + j);
            return s;
        };
        QCOMPARE(part.at(Column::ScoreReference, 2), dot(2, 0));
        QCOMPARE(part.at(Column::ScoreChosen, 2), dot(3, 1));
    }

    // Llama 4: the temperature at the chosen id, at the column (cache_position) and at the reference's
    // id, the chunk at the chosen id and at the column less the row's left padding.
    void llama4TemperatureAndChunk()
    {
        const Params p = with({{u"encoding"_s, u"none"_s},
                               {u"d-model"_s, u"8"_s},
                               {u"max-len"_s, u"20000"_s},
                               {u"batch"_s, u"left:5000,20000"_s},
                               {u"attn-scale"_s, u"0.1"_s},
                               {u"floor-scale"_s, u"8192"_s},
                               {u"attention-chunk"_s, u"8192"_s},
                               {u"ids-choice"_s, u"arange-with-padding"_s}});
        const Engine engine(p);
        const auto temperature
            = [](std::int64_t at) { return std::log1p(std::floor(double(at + 1) / 8192.0)) * 0.1 + 1.0; };
        const Row row = effect(engine, 0);
        for (const std::int64_t c : {15000, 16383, 16384, 19999}) {
            QCOMPARE(row.at(Column::TemperatureIds, c), temperature(c));
            QCOMPARE(row.at(Column::TemperatureCache, c), temperature(c));
            // The token's own position, which the lesson quotes beside the column's.
            QCOMPARE(row.at(Column::TemperatureReference, c), temperature(c - 15000));
            QCOMPARE(row.at(Column::ChunkIds, c), double(c / 8192));
            QCOMPARE(row.at(Column::ChunkCache, c), double((c - 15000) / 8192));
            QCOMPARE(row.at(Column::ScoreDifference, c), 0.0);
        }
        // Under the reference the ids give the token's own position, the column its padded one.
        const Engine reference(with({{u"encoding"_s, u"none"_s},
                                     {u"max-len"_s, u"20000"_s},
                                     {u"batch"_s, u"left:5000,20000"_s},
                                     {u"attn-scale"_s, u"0.1"_s},
                                     {u"attention-chunk"_s, u"8192"_s}}));
        const Row own = effect(reference, 0);
        QCOMPARE(own.at(Column::TemperatureIds, 19999), temperature(4999));
        QCOMPARE(own.at(Column::TemperatureCache, 19999), temperature(19999));
        QCOMPARE(own.at(Column::ChunkIds, 19999), 0.0);
    }

    // ALiBi's bias at the two ids: relative, so the same under a common shift.
    void alibiRelative()
    {
        const Params p = with({{u"encoding"_s, u"alibi"_s},
                               {u"d-model"_s, u"8"_s},
                               {u"heads"_s, u"8"_s},
                               {u"head"_s, u"2"_s},
                               {u"max-len"_s, u"12"_s},
                               {u"batch"_s, u"left:7"_s},
                               {u"ids-choice"_s, u"arange-with-padding"_s}});
        const Engine engine(p);
        const Row row = effect(engine, 0);
        // get_slopes(8): 2^(-8 k / 8) for head k = 2: 1/4; the bias -m (q - k).
        for (std::int64_t c = 5; c < 12; ++c) {
            QCOMPARE(row.at(Column::ScoreReference, c), -0.25 * double(c - 5));
            QCOMPARE(row.at(Column::ScoreDifference, c), 0.0);
        }
    }

    // The scores a batch's rows share (kept by distance, and by query id against a key at id 0) are
    // each token's own, bit for bit: rows asked in any order, twice, from a fresh engine or a used
    // one, under the reference's ids (keys at 0) and a choice whose keys are not at 0; and past the
    // 2^18 ids kept, where each token is computed alone.
    void keptScoresAreEachTokensOwn_data()
    {
        QTest::addColumn<QString>("batch");
        QTest::addColumn<QString>("maxLen");
        QTest::addColumn<QString>("choice");
        QTest::newRow("rows of one length, off by one") << u"left:300,300,280,300"_s << u"300"_s << u"off-by-one"_s;
        QTest::newRow("right padding, arange") << u"right:7,300,120"_s << u"300"_s << u"arange-with-padding"_s;
        QTest::newRow("past 2^18 ids") << u"left:262150,262200"_s << u"262200"_s << u"off-by-one"_s;
    }
    void keptScoresAreEachTokensOwn()
    {
        QFETCH(QString, batch);
        QFETCH(QString, maxLen);
        QFETCH(QString, choice);
        const Params p = with({{u"encoding"_s, u"rope"_s},
                               {u"d-model"_s, u"8"_s},
                               {u"head-dim"_s, u"8"_s},
                               {u"max-len"_s, maxLen},
                               {u"batch"_s, batch},
                               {u"ids-choice"_s, choice}});
        const std::vector<double> w = ropeFrequencies(10000.0, 8);
        const Engine engine(p);
        const BatchLayout &layout = engine.source<BatchIds>().layout();
        for (int pass = 0; pass < 2; ++pass) {
            for (std::int64_t b = layout.rows() - 1; b >= 0; --b) {
                const Row row = effect(engine, b);
                // The row's first real token is every token's key (no documents).
                std::int64_t first = 0;
                while (row.at(Column::Real, first) == 0.0)
                    ++first;
                for (std::int64_t c = first; c < p.maxLen && row.at(Column::Real, c) != 0.0; ++c) {
                    const auto reference = std::int64_t(row.at(Column::ReferenceId, c));
                    const auto chosen = std::int64_t(row.at(Column::ChosenId, c));
                    QVERIFY(row.at(Column::ScoreReference, c)
                            == score(w, reference, std::int64_t(row.at(Column::ReferenceId, first))));
                    QVERIFY(row.at(Column::ScoreChosen, c)
                            == score(w, chosen, std::int64_t(row.at(Column::ChosenId, first))));
                    const double f32 = score32(w, chosen, std::int64_t(row.at(Column::ChosenId, first)))
                        - score32(w, reference, std::int64_t(row.at(Column::ReferenceId, first)));
                    QVERIFY2(row.at(Column::Float32Difference, c) == f32,
                             qPrintable(u"row %1, column %2"_s.arg(b).arg(c)));
                }
            }
        }
    }

    // The table is the values, a token a row, in float32.
    // A family that places positions is never said to place none: the effect reads them from one
    // id per token, or says it does not draw them (a 2-D grid's rotation, FLUX's and Pixtral's, was
    // drawn as "none (no position placed)", and the left-padding lesson said FLUX places none).
    void aFamilyThatPlacesPositionsIsNeverCalledNone()
    {
        int unread = 0;
        for (const FamilySpec &family : Families::all()) {
            Params p = with({{u"encoding"_s, family.word}, {u"max-len"_s, u"16"_s}}, false);
            // A learned table's rows, for the family that reads one.
            auto table = std::make_shared<PositionMatrix>();
            table->values = RowMatrixXf::Zero(p.maxLen, p.dModel);
            p.learned.table = table;
            QVERIFY2(p.validate().isEmpty(), qPrintable(family.word));
            const Engine engine(p);
            const QString words = engine.source<PositionEffect>().scoreWords();
            if (family.placesPosition())
                QVERIFY2(words != u"none (no position placed)"_s, qPrintable(family.word));
            else
                QCOMPARE(words, u"none (no position placed)"_s);
            if (!PositionEffect::reads(family)) {
                ++unread;
                QVERIFY2(words.startsWith(u"not drawn: "_s), qPrintable(family.word + u": "_s + words));
            }
        }
        QVERIFY(unread > 0);
        QVERIFY(!PositionEffect::reads(Families::spec(*Families::fromWord(u"rope-2d"_s))));
        // 2-D sin-cos stores its table by the patch's index, but each row is made of the patch's
        // row and column: MAE's and DiT's lessons said it "adds each token's 2-D sin-cos row at its id".
        QVERIFY(!PositionEffect::reads(Families::spec(*Families::fromWord(u"sincos-2d"_s))));
        QVERIFY(PositionEffect::reads(Families::spec(*Families::fromWord(u"mrope"_s))));
        QVERIFY(PositionEffect::reads(Families::spec(*Families::fromWord(u"sinusoidal"_s))));
    }

    void table()
    {
        const Params p = with({{u"encoding"_s, u"rope"_s},
                               {u"d-model"_s, u"8"_s},
                               {u"head-dim"_s, u"8"_s},
                               {u"max-len"_s, u"6"_s},
                               {u"batch"_s, u"left:4,6"_s},
                               {u"ids-choice"_s, u"off-by-one"_s}});
        const Engine engine(p);
        const Shape shape = engine.shape(Quantity::PositionEffect);
        QCOMPARE(shape.rows, 12);
        QCOMPARE(shape.cols, std::int64_t(PositionEffect::Columns));
        const RowMatrixXf m = testing::computeTable(engine, Quantity::PositionEffect, {0, 12, 0, shape.cols});
        for (std::int64_t b = 0; b < 2; ++b) {
            const Row row = effect(engine, b);
            for (std::int64_t c = 0; c < 6; ++c) {
                for (int k = 0; k < PositionEffect::Columns; ++k)
                    QCOMPARE(m(b * 6 + c, k), float(row.at(Column(k), c)));
            }
        }
        QCOMPARE(m(2, Column::ChosenId), 1.0f); // row 0's first real token: id 0 + 1
    }
};

POSENC_TEST_GUILESS_MAIN(TestPositionEffect)
} // namespace tst_positioneffect
#include "tst_positioneffect.moc"
