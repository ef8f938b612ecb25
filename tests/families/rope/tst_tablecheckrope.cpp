// The check of RoPE cos and sin tables as HF's rotary embedding returns them: each type's
// frequencies from modeling_rope_utils.py's formulas (tests/support/RopeReference.h, float64), the
// attention factor in the amplitude, both layouts, and the mistakes rope-layout,
// attention-factor-missing and position-offset.
#include "core/CheckTables.h"
#include "support/RopeReference.h"
#include "support/Sanitizer.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"
#include "check/rope/RopeLongRopeForms.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

namespace tst_tablecheckrope {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

// L x r: column c holds pair c mod r/2 (half) or c / 2 (interleaved), amplitude times cos or sin
// of (p + first) inv_i.
RowMatrixXf ropeTable(const Params &p, std::int64_t rows, bool cosine, double amplitude, std::int64_t first = 0)
{
    const std::vector<double> inv = roperef::inv(p);
    const auto h = std::int64_t(inv.size());
    const bool half = p.rope.layout == RopeLayout::Half;
    return table(rows, 2 * h, [&](std::int64_t r, std::int64_t c) {
        const double angle = double(r + first) * inv[std::size_t(half ? c % h : c / 2)];
        return amplitude * (cosine ? std::cos(angle) : std::sin(angle));
    });
}

Params rope(RopeType type, double theta, std::int64_t headDim)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.maxLen = 4096;
    p.rope.headDim = headDim;
    p.rope.theta = theta;
    p.rope.type = type;
    return p;
}

QStringList ids(const TableMatch &m)
{
    return m.mistakes;
}

QString layoutWord(RopeLayout layout)
{
    return layout == RopeLayout::Half ? u"half"_s : u"interleaved"_s;
}

// A RoPE table declared one (its layout): at theta 10000 a RoPE cos or sin table is also a
// sinusoid whose sines or cosines were replaced, which only a declaration tells apart.
TableCheck::Declared asRope(RopeLayout layout)
{
    return declaring(u"rope-layout"_s, [=](Params &p) { p.rope.layout = layout; });
}

// A published LongRoPE form by name (its factor lists as the model's config.json gives them).
Params longRopeForm(const QString &name, std::int64_t maxLen)
{
    for (const RopeFit::Published &form : RopeLongRopeForms::forms())
        if (form.name.startsWith(name)) {
            Params p = form.params;
            p.maxLen = maxLen;
            return p;
        }
    qFatal("no LongRoPE form %s", qPrintable(name));
}

// The table rounded to the stored type's values, as torch's .half() and .bfloat16() store it.
RowMatrixXf storedAs(RowMatrixXf values, StoredType stored)
{
    if (stored == StoredType::Float16 || stored == StoredType::BFloat16)
        for (Eigen::Index i = 0; i < values.size(); ++i)
            values.data()[i] = stored == StoredType::Float16 ? toHalf(values.data()[i]) : toBFloat(values.data()[i]);
    return values;
}

QString storedWord(StoredType stored)
{
    return stored == StoredType::Float16 ? u"float16"_s : stored == StoredType::BFloat16 ? u"bfloat16"_s : u"float32"_s;
}

// A partial rotary's cos or sin table at rope_theta `theta`, written from transformers'
// modeling_rope_utils.py (huggingface/transformers, src/transformers/modeling_rope_utils.py):
// _compute_default_rope_parameters takes dim = int(head_dim * partial_rotary_factor) and inv_freq_i =
// 1 / theta^(2i / dim), the table L x dim; the proportional type's exponent runs over head_dim
// instead, the int(F * head_dim // 2) pairs after them at frequency 0, the table L x head_dim
// (cat((inv_freq, zeros)), then cat((freqs, freqs))). In float64, then rounded to `stored`.
RowMatrixXf partialRotaryTable(std::int64_t rows, std::int64_t headDim, double factor, double theta, bool proportional,
                               bool cosine, StoredType stored)
{
    const auto dim = std::int64_t(double(headDim) * factor);
    const auto live = std::int64_t(std::floor(factor * double(headDim) / 2.0));
    const std::int64_t width = proportional ? headDim : dim, h = width / 2;
    const double exponentOver = double(proportional ? headDim : dim);
    RowMatrixXf values = table(rows, width, [&](std::int64_t p, std::int64_t c) {
        const std::int64_t i = c % h;
        const double inv = proportional && i >= live ? 0.0 : std::pow(theta, -2.0 * double(i) / exponentOver);
        return cosine ? std::cos(double(p) * inv) : std::sin(double(p) * inv);
    });
    return storedAs(std::move(values), stored);
}
} // namespace

class TestTableCheckRope : public QObject
{
    Q_OBJECT

private slots:
    void typesAreFound_data()
    {
        QTest::addColumn<Params>("params");
        QTest::addColumn<bool>("cosine");
        QTest::addColumn<QString>("type");
        QTest::addColumn<CheckVerdict>("verdict"); // correct for a published form, else a variant

        QTest::newRow("default, cos, half (Llama 2 7B, RoFormer)")
            << rope(RopeType::Default, 10000.0, 128) << true << "default" << CheckVerdict::Correct;
        Params sinInterleaved = rope(RopeType::Default, 500000.0, 64);
        sinInterleaved.rope.layout = RopeLayout::Interleaved;
        QTest::newRow("default, sin, interleaved") << sinInterleaved << false << "default" << CheckVerdict::Variant;
        Params linear = rope(RopeType::Linear, 10000.0, 128);
        linear.rope.factor = 4.0;
        QTest::newRow("linear 4") << linear << true << "linear" << CheckVerdict::Variant;
        Params yarn = rope(RopeType::Yarn, 10000.0, 128);
        yarn.rope.factor = 4.0;
        yarn.rope.originalMaxLen = 4096;
        yarn.maxLen = 16384;
        QTest::newRow("yarn 4 from 4096") << yarn << true << "yarn" << CheckVerdict::Variant;
        Params llama = roperef::llama31();
        llama.maxLen = 16384;
        QTest::newRow("llama3 (Llama 3.1)") << llama << true << "llama3" << CheckVerdict::Correct;
        Params gptOss = roperef::gptOss();
        gptOss.maxLen = 16384;
        QTest::newRow("yarn without truncation (gpt-oss)") << gptOss << false << "yarn" << CheckVerdict::Correct;
        Params proportional = rope(RopeType::Proportional, 1000000.0, 256);
        proportional.rope.partialRotaryFactor = 0.25;
        QTest::newRow("proportional, head_dim 256") << proportional << true << "proportional" << CheckVerdict::Variant;
    }
    void typesAreFound()
    {
        QFETCH(Params, params);
        QFETCH(bool, cosine);
        QFETCH(QString, type);
        QFETCH(CheckVerdict, verdict);
        const double af = roperef::attentionFactor(params);
        const Checked c
            = check(ropeTable(params, params.maxLen, cosine, af), StoredType::Float32, asRope(params.rope.layout));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        QVERIFY2(m.verdict == verdict, qPrintable(m.diagnosis + u" | "_s + m.deviations));
        QCOMPARE(m.correctAgainst.isEmpty(), verdict != CheckVerdict::Correct);
        QCOMPARE(m.table, cosine ? u"rope-cos"_s : u"rope-sin"_s);
        QCOMPARE(word(m, u"rope_type"_s), type);
        QCOMPARE(word(m, u"layout"_s), layoutWord(params.rope.layout));
        QCOMPARE(number(m, u"base"_s), params.rope.theta);
        QVERIFY(std::fabs(number(m, u"attention_factor"_s) - af) < 1e-6 * af);
        QCOMPARE(*m.positionOffset, qint64(0));
        QCOMPARE(*m.firstPositionRow, qint64(0));
        QVERIFY(m.mistakes.empty());
        QVERIFY(m.params.has_value());
        QCOMPARE(m.params->rope.type, params.rope.type);
        if (params.rope.factor)
            QCOMPARE(*m.params->rope.factor, *params.rope.factor);
    }

    // llama3's table holds only original / low_freq_factor and original / high_freq_factor
    // (modeling_rope_utils.py, _compute_llama3_parameters: low_freq_wavelen and high_freq_wavelen,
    // and smooth_factor = (original / wavelen - low) / (high - low)): (8192, 1, 4) and (256,
    // 0.03125, 0.125) give the same table. Variants of Llama 3.1's bands (factor 16; theta 10000)
    // are named with Meta's published 8192, 1, 4; bands of no published set at the published
    // original length (8192, 2, 8), not at another's.
    void llamaBandsNamedAsPublished_data()
    {
        QTest::addColumn<double>("theta");
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::newRow("factor 16") << 500000.0 << 16.0 << 1.0 << 4.0;
        QTest::newRow("theta 10000") << 10000.0 << 8.0 << 1.0 << 4.0;
        QTest::newRow("bands 4096 and 1024") << 500000.0 << 8.0 << 2.0 << 8.0;
    }
    void llamaBandsNamedAsPublished()
    {
        QFETCH(double, theta);
        QFETCH(double, factor);
        QFETCH(double, low);
        QFETCH(double, high);
        Params p = roperef::llama31();
        p.maxLen = 4096;
        p.rope.theta = theta;
        p.rope.factor = factor;
        p.rope.lowFreqFactor = low;
        p.rope.highFreqFactor = high;
        const Checked c = check(ropeTable(p, p.maxLen, true, 1.0));
        const TableMatch &m = c.match;
        QVERIFY2(m.verdict == CheckVerdict::Variant, qPrintable(m.diagnosis));
        QVERIFY(m.params);
        QCOMPARE(m.params->rope.type, RopeType::Llama3);
        QCOMPARE(m.params->rope.originalMaxLen, std::optional<std::int64_t>(8192));
        QCOMPARE(m.params->rope.lowFreqFactor, low);
        QCOMPARE(m.params->rope.highFreqFactor, high);
        QCOMPARE(*m.params->rope.factor, factor);
        QVERIFY2(m.referenceText.contains(u"original_max_position_embeddings 8192"_s), qPrintable(m.referenceText));
    }

    // A YaRN table at amplitude 1 is what mscale = mscale_all_dim gives (DeepSeek-V3's and Mistral
    // 3's configs: get_mscale(f, m) / get_mscale(f, m) = 1, transformers _compute_yarn_parameters):
    // undeclared never a mistake. Declared without them (HF's default 0.1 ln(f) + 1), the factor
    // left out is named (keras-hub PR#2981, exllamav3#259).
    void yarnWithoutAttentionFactor()
    {
        Params yarn = rope(RopeType::Yarn, 10000.0, 128);
        yarn.rope.factor = 4.0;
        yarn.rope.originalMaxLen = 4096;
        yarn.maxLen = 16384;
        const RowMatrixXf t = ropeTable(yarn, yarn.maxLen, true, 1.0);
        const Checked c = check(t);
        QVERIFY2(c.match.verdict != CheckVerdict::Mistake, qPrintable(c.match.mistakes.join(u","_s)));
        QCOMPARE(word(c.match, u"rope_type"_s), u"yarn"_s);
        QCOMPARE(number(c.match, u"attention_factor"_s), 1.0);
        QVERIFY(c.match.notes.join(u" "_s).contains(u"mscale_all_dim"_s));
        QVERIFY2(*c.match.maxAbsError < 1e-5, qPrintable(QString::number(*c.match.maxAbsError)));
        const MatrixRows rows(std::make_shared<const RowMatrixXf>(t), StoredType::Float32, u"test"_s);
        const auto got = TableCheck::expect(rows, Encoding::Rope, yarn, u"rope-cos"_s);
        QVERIFY(std::holds_alternative<TableMatch>(got));
        const TableMatch &m = std::get<TableMatch>(got);
        QCOMPARE(m.verdict, CheckVerdict::Mistake);
        QCOMPARE(m.mistakes, QStringList {u"attention-factor-missing"_s});
        // Declared with mscale = mscale_all_dim, the same table is the reference.
        yarn.rope.mscale = 1.0;
        yarn.rope.mscaleAllDim = 1.0;
        const auto same = TableCheck::expect(rows, Encoding::Rope, yarn, u"rope-cos"_s);
        QVERIFY(std::get<TableMatch>(same).mistakes.isEmpty());
        QVERIFY(std::get<TableMatch>(same).verdict != CheckVerdict::Mistake);
    }

    // llama.cpp#3018: the half layout where interleaved was meant.
    void declaredLayoutIsChecked()
    {
        const Params p = rope(RopeType::Default, 10000.0, 64);
        TableCheck::Declared declared
            = declaring(u"rope-layout"_s, [](Params &p) { p.rope.layout = RopeLayout::Interleaved; });
        const Checked c = check(ropeTable(p, 2048, true, 1.0), StoredType::Float32, declared);
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(ids(c.match), QStringList {u"rope-layout"_s});
        QCOMPARE(word(c.match, u"layout"_s), u"half"_s);
        QVERIFY(*c.match.maxAbsError > 0.5);
        // Declared as it is: correct.
        declared.params.rope.layout = RopeLayout::Half;
        QCOMPARE(check(ropeTable(p, 2048, true, 1.0), StoredType::Float32, declared).match.verdict,
                 CheckVerdict::Correct);
    }

    // Rows from position 1 are a window of RoPE's table (issue 56): undeclared, correct with the window
    // said; against positions declared from 0, position-offset.
    void positionsFromOne()
    {
        const Params p = rope(RopeType::Default, 10000.0, 64);
        const Checked c = check(ropeTable(p, 2048, false, 1.0, 1));
        QCOMPARE(c.match.verdict, CheckVerdict::Correct);
        QVERIFY(c.match.mistakes.isEmpty());
        QVERIFY(c.match.positions && c.match.positions->first == 1 && c.match.positions->last == 2048
                && !c.match.positions->declared);
        QCOMPARE(*c.match.positionOffset, qint64(1));
        TableCheck::Declared fromZero;
        fromZero.positionsDeclared = true;
        const Checked d = check(ropeTable(p, 2048, false, 1.0, 1), StoredType::Float32, fromZero);
        QCOMPARE(d.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(ids(d.match), QStringList {u"position-offset"_s});
        QCOMPARE(*d.match.positionOffset, qint64(1));
    }

    // One cell off in a table small enough to be sampled whole, in either layout and in a pair's
    // first or second half: a mistake at that cell, not a table of another kind.
    void oneChangedCellIsAMistakeAtThatCell_data()
    {
        QTest::addColumn<bool>("interleaved");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("row");
        QTest::addColumn<qint64>("column");
        QTest::newRow("half, first half") << false << qint64(300) << qint64(77) << qint64(5);
        QTest::newRow("half, second half") << false << qint64(300) << qint64(77) << qint64(20);
        QTest::newRow("interleaved, fastest pair") << true << qint64(300) << qint64(2) << qint64(1);
        QTest::newRow("a table of 20 rows") << false << qint64(20) << qint64(7) << qint64(3);
        QTest::newRow("sampled, not whole") << false << qint64(5000) << qint64(3001) << qint64(30);
    }

    void oneChangedCellIsAMistakeAtThatCell()
    {
        QFETCH(bool, interleaved);
        QFETCH(qint64, rows);
        QFETCH(qint64, row);
        QFETCH(qint64, column);
        Params p = rope(RopeType::Default, 10000.0, 32);
        p.rope.layout = interleaved ? RopeLayout::Interleaved : RopeLayout::Half;
        RowMatrixXf values = ropeTable(p, rows, true, 1.0);
        values(row, column) += 1e-3f;
        const Checked c = check(values, StoredType::Float32, asRope(p.rope.layout));
        QVERIFY2(c.match.verdict == CheckVerdict::Mistake, qPrintable(c.match.diagnosis));
        QCOMPARE(c.match.table, u"rope-cos"_s);
        QCOMPARE(word(c.match, u"layout"_s), layoutWord(p.rope.layout));
        QVERIFY(c.match.mistakes.empty());
        QCOMPARE(*c.match.worstRow, row);
        QCOMPARE(*c.match.worstColumn, column);
        QVERIFY(std::fabs(*c.match.maxAbsError - 1e-3) < 1e-6);
        QCOMPARE(c.verification.deviatingCells, qint64(1));
    }

    // HF computes cos and sin in float32: inv_freq = 1 / theta^(arange(0, r, 2) / r) and
    // inv_freq * position in float32.
    void float32Angles()
    {
        const std::int64_t r = 128;
        const RowMatrixXf values = table(32768, r, [&](std::int64_t p, std::int64_t c) {
            const float inv = 1.0f / std::pow(10000.0f, float(2 * (c % (r / 2))) / float(r));
            return std::cos(float(p) * inv);
        });
        const Checked c = check(values, StoredType::Float32, asRope(RopeLayout::Half));
        QVERIFY2(c.match.verdict == CheckVerdict::Correct,
                 qPrintable(c.match.diagnosis + u" | "_s + c.match.deviations));
        QCOMPARE(*c.match.precision, TablePrecision::Float32Angles);
        QCOMPARE(word(c.match, u"rope_type"_s), u"default"_s);
    }
    // HF's float32 cos table, stored as float16 (a model's .half()): the cells' rounding hides the
    // float32 angles' growth, which is then allowed but not claimed as shown; still Llama 2's.
    void float32AnglesUnderFloat16Cells()
    {
        const std::int64_t r = 128;
        const RowMatrixXf values = table(2048, r, [&](std::int64_t p, std::int64_t c) {
            const float inv = 1.0f / std::pow(10000.0f, float(2 * (c % (r / 2))) / float(r));
            return toHalf(std::cos(float(p) * inv));
        });
        const Checked c = check(values, StoredType::Float16);
        QVERIFY2(c.match.verdict == CheckVerdict::Correct,
                 qPrintable(c.match.diagnosis + u" | "_s + c.match.deviations));
        QVERIFY(c.match.correctAgainst.contains(u"Llama 2 7B"_s));
        QCOMPARE(c.verification.deviatingCells, qint64(0));
    }

    // A published form's table is correct against that model in every format a model stores it
    // in; its findings are the form's own (Phi-4 mini's short factors of 1 are LongRoPE's, at
    // its attention factor, though the default type gives the same frequencies).
    void publishedFormsInEveryStoredFormat_data()
    {
        QTest::addColumn<Params>("params");
        QTest::addColumn<StoredType>("stored");
        QTest::addColumn<QString>("model");
        const QList<std::pair<Params, QString>> forms {
            {rope(RopeType::Default, 10000.0, 128), u"Llama 2 7B"_s},
            // Llama 3 without rope_scaling (meta-llama/llama3 llama/model.py, ModelArgs.rope_theta
            // 500000): was a variant, nearest GLM-4.5; in bfloat16 "rope_theta 500000.6".
            {rope(RopeType::Default, 500000.0, 128), u"Llama 3 8B"_s},
            {longRopeForm(u"Phi-3 mini 128k"_s, 8192), u"Phi-3 mini 128k"_s},
            {longRopeForm(u"Phi-3 mini 128k"_s, 2048), u"Phi-3 mini 128k"_s},
            {longRopeForm(u"Phi-4 mini"_s, 2048), u"Phi-4 mini"_s},
            {longRopeForm(u"Phi-4 mini"_s, 8192), u"Phi-4 mini"_s},
        };
        for (const auto &[params, model] : forms)
            for (const StoredType stored : {StoredType::Float32, StoredType::Float16, StoredType::BFloat16})
                QTest::addRow("%s, L %lld, %s", qPrintable(model), qint64(params.maxLen),
                              qPrintable(storedWord(stored)))
                    << params << stored << model;
    }
    void publishedFormsInEveryStoredFormat()
    {
        QFETCH(Params, params);
        QFETCH(StoredType, stored);
        QFETCH(QString, model);
        const double af = roperef::attentionFactor(params);
        const Checked c = check(storedAs(ropeTable(params, params.maxLen, true, af), stored), stored);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QVERIFY2(c.match.verdict == CheckVerdict::Correct,
                 qPrintable(c.match.diagnosis + u" | "_s + c.match.deviations));
        QVERIFY2(c.match.correctAgainst.contains(model), qPrintable(c.match.correctAgainst));
        QCOMPARE(word(c.match, u"rope_type"_s), params.rope.type == RopeType::LongRope ? u"longrope"_s : u"default"_s);
        QVERIFY(std::fabs(number(c.match, u"attention_factor"_s) - af) < 1e-12 * af);
        QCOMPARE(c.verification.deviatingCells, qint64(0));
    }

    // HF's LongRoPE takes long_factor for a sequence past original_max_position_embeddings: a
    // table of its first 2048 positions holds the long factors, and is Phi-3's; likewise a table
    // of 8192 rows of the short factors. The report says which.
    void longRopeFactorsOfTheOtherRegime_data()
    {
        QTest::addColumn<qint64>("factorsAt");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<QString>("words");
        QTest::newRow("long factors, 2048 rows") << qint64(8192) << qint64(2048) << u"the long factors"_s;
        QTest::newRow("short factors, 8192 rows") << qint64(2048) << qint64(8192) << u"the short factors"_s;
    }
    void longRopeFactorsOfTheOtherRegime()
    {
        QFETCH(qint64, factorsAt);
        QFETCH(qint64, rows);
        QFETCH(QString, words);
        const Params p = longRopeForm(u"Phi-3 mini 128k"_s, factorsAt);
        const Checked c = check(ropeTable(p, rows, true, roperef::attentionFactor(p)));
        QVERIFY2(c.match.verdict == CheckVerdict::Correct, qPrintable(c.match.diagnosis));
        QVERIFY(c.match.correctAgainst.contains(u"Phi-3 mini 128k"_s));
        QVERIFY2(c.match.notes.join(u'\n').contains(words), qPrintable(c.match.notes.join(u'\n')));
    }

    // Phi-3 mini 128k's table with one long factor times 1.5 (HF's _compute_longrope_parameters:
    // inv_freq = 1 / (ext_factors * base^(arange(0, dim, 2) / dim))): a mistake in that pair's
    // columns alone, the pair and both factors named; at the first, a middle and the last pair,
    // in both layouts, of 2048 rows (the long factors of a longer max_len) and of 8192.
    void changedLongFactorIsLocated_data()
    {
        QTest::addColumn<qint64>("pair");
        QTest::addColumn<RopeLayout>("layout");
        QTest::addColumn<qint64>("rows");
        for (const qint64 rows : {2048, 8192})
            for (const RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved})
                for (const qint64 pair : {0, 24, 47})
                    QTest::addRow("pair %lld, %s, %lld rows", pair, qPrintable(layoutWord(layout)), rows)
                        << pair << layout << rows;
    }
    void changedLongFactorIsLocated()
    {
        POSENC_SAMPLE_UNDER_SANITIZER();
        QFETCH(qint64, pair);
        QFETCH(RopeLayout, layout);
        QFETCH(qint64, rows);
        Params p = longRopeForm(u"Phi-3 mini 128k"_s, 8192);
        p.rope.layout = layout;
        const double published = p.rope.longFactor[std::size_t(pair)];
        p.rope.longFactor[std::size_t(pair)] *= 1.5;
        const Checked c = check(ropeTable(p, rows, true, roperef::attentionFactor(p)));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(ids(c.match), QStringList {u"longrope-factor"_s});
        QVERIFY2(c.match.diagnosis.contains(u"pair %1 "_s.arg(pair)), qPrintable(c.match.diagnosis));
        QVERIFY2(c.match.diagnosis.contains(u"Phi-3 mini 128k"_s), qPrintable(c.match.diagnosis));
        QVERIFY2(c.match.diagnosis.contains(u"long_factor[%1] is %2"_s.arg(pair).arg(published, 0, 'g', 7)),
                 qPrintable(c.match.diagnosis));
        // Every deviating cell in the pair's two columns, and both of them deviate.
        const std::int64_t h = 48;
        const std::vector<std::int64_t> columns = layout == RopeLayout::Half
            ? std::vector<std::int64_t> {pair, pair + h}
            : std::vector<std::int64_t> {2 * pair, 2 * pair + 1};
        const std::vector<std::int64_t> &deviations = c.verification.columnDeviations;
        QCOMPARE(std::int64_t(deviations.size()), 2 * h);
        for (std::int64_t j = 0; j < 2 * h; ++j) {
            const bool changed = std::find(columns.begin(), columns.end(), j) != columns.end();
            QVERIFY2(changed == (deviations[std::size_t(j)] > 0),
                     qPrintable(u"column %1: %2 deviating cells"_s.arg(j).arg(deviations[std::size_t(j)])));
        }
    }

    // Near a published form, but not it: never correct.
    // A partial rotary's table in every format a model stores it in: its rope_theta and type read
    // exactly, whatever the share of the head that turns, never a mistake, and no M-RoPE's or other
    // family's reading in its place. bfloat16's rows pin each frequency to a part in a few thousand
    // only at 64 positions: rope_theta is read from them as closely as they allow (before: taken as
    // 10000, the proportional table then read as M-RoPE's).
    void partialRotaryInEveryStoredFormat_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("headDim");
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("theta");
        QTest::addColumn<bool>("proportional");
        QTest::addColumn<bool>("cosine");
        QTest::addColumn<StoredType>("stored");
        const QList<std::pair<qint64, double>> heads {{256, 0.25}, {128, 0.5}, {80, 0.4}};
        for (const qint64 rows : {64, 2048})
            for (const auto &[headDim, factor] : heads)
                for (const double theta : {1e4, 1e6, 1e7})
                    for (const bool proportional : {false, true})
                        for (const StoredType stored : {StoredType::Float32, StoredType::Float16, StoredType::BFloat16})
                            for (const bool cosine : {true, false})
                                QTest::addRow("%lld rows, head %lld x %g, theta %g, %s, %s, %s", rows, headDim, factor,
                                              theta, proportional ? "proportional" : "default", cosine ? "cos" : "sin",
                                              qPrintable(storedWord(stored)))
                                    << rows << headDim << factor << theta << proportional << cosine << stored;
    }
    void partialRotaryInEveryStoredFormat()
    {
        POSENC_SAMPLE_UNDER_SANITIZER();
        QFETCH(qint64, rows);
        QFETCH(qint64, headDim);
        QFETCH(double, factor);
        QFETCH(double, theta);
        QFETCH(bool, proportional);
        QFETCH(bool, cosine);
        QFETCH(StoredType, stored);
        const Checked c = check(partialRotaryTable(rows, headDim, factor, theta, proportional, cosine, stored), stored);
        const QString said = c.match.diagnosis + u" | "_s + c.match.deviations;
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QVERIFY2(c.match.verdict == CheckVerdict::Correct || c.match.verdict == CheckVerdict::Variant,
                 qPrintable(said));
        QCOMPARE(c.match.family, std::optional<Encoding>(Encoding::Rope));
        QCOMPARE(number(c.match, u"base"_s), theta);
        QVERIFY2(c.match.params, qPrintable(said));
        const RopeParams &found = c.match.params->rope;
        QVERIFY2(!found.factor || *found.factor == 1.0, qPrintable(said));
        // The reading: the default type, or proportional's (a share of the head at frequency 0). A
        // proportional table whose slowest live pairs turn by less than a cell's rounding over
        // these rows is the simpler default type's (or one of fewer digits') as well: then the
        // reading's angles, by the formulas above, give every cell of the table within its rounding.
        const QString type = word(c.match, u"rope_type"_s);
        if (!proportional)
            QCOMPARE(type, u"default"_s);
        QVERIFY2(type == u"default"_s || type == u"proportional"_s, qPrintable(said));
        const RowMatrixXf truth = partialRotaryTable(rows, headDim, factor, theta, proportional, cosine, stored);
        const RowMatrixXf read = type == u"default"_s
            ? partialRotaryTable(rows, truth.cols(), 1.0, theta, false, cosine, StoredType::Float32)
            : partialRotaryTable(rows, found.headDim, found.partialRotaryFactor, theta, true, cosine,
                                 StoredType::Float32);
        QCOMPARE(read.cols(), truth.cols());
        const double rounding = stored == StoredType::BFloat16 ? 0x1p-8
            : stored == StoredType::Float16                    ? 0x1p-11
                                                               : 0x1p-23;
        QVERIFY2(((read - truth).cwiseAbs().array() <= float(rounding)).all(), qPrintable(said));
        if (type == u"proportional"_s && proportional)
            QVERIFY2(std::floor(found.partialRotaryFactor * double(headDim) / 2.0)
                         >= std::floor(factor * double(headDim) / 2.0),
                     qPrintable(said));
        QCOMPARE(c.verification.deviatingCells, qint64(0));
    }

    void nearMissesAreNotCorrect_data()
    {
        QTest::addColumn<Params>("params");
        QTest::addColumn<double>("amplitude");
        QTest::addColumn<StoredType>("stored");
        Params p3 = longRopeForm(u"Phi-3 mini 128k"_s, 8192);
        Params oneFactor = p3;
        oneFactor.rope.longFactor[5] += 0.001;
        QTest::newRow("Phi-3, long_factor[5] + 0.001")
            << oneFactor << roperef::attentionFactor(p3) << StoredType::Float32;
        Params slowest = p3;
        slowest.rope.longFactor[47] += 0.5;
        QTest::newRow("Phi-3, long_factor[47] + 0.5") << slowest << roperef::attentionFactor(p3) << StoredType::Float32;
        QTest::newRow("Phi-3 times 1.0001") << p3 << 1.0001 * roperef::attentionFactor(p3) << StoredType::Float32;
        // Phi-4 mini's short table is the default type's frequencies at 1.190238: at 1.19, not it.
        QTest::newRow("default, head 96, amplitude 1.19")
            << rope(RopeType::Default, 10000.0, 96) << 1.19 << StoredType::Float32;
        QTest::newRow("Llama 2 times 1.01, float16")
            << rope(RopeType::Default, 10000.0, 128) << 1.01 << StoredType::Float16;
        QTest::newRow("Llama 2 times 1.05, bfloat16")
            << rope(RopeType::Default, 10000.0, 128) << 1.05 << StoredType::BFloat16;
    }
    void nearMissesAreNotCorrect()
    {
        QFETCH(Params, params);
        QFETCH(double, amplitude);
        QFETCH(StoredType, stored);
        const Checked c = check(storedAs(ropeTable(params, params.maxLen, true, amplitude), stored), stored);
        QVERIFY2(c.match.verdict != CheckVerdict::Correct,
                 qPrintable(c.match.correctAgainst + u" | "_s + c.match.diagnosis));
        QVERIFY(c.match.correctAgainst.isEmpty());
    }
};

POSENC_TEST_APPLESS_MAIN(TestTableCheckRope)
} // namespace tst_tablecheckrope
#include "tst_tablecheckrope.moc"
