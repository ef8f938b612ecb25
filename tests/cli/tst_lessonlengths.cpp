// A lesson's facts are the model's own, not values written for the lesson's default
// (docs/ARCHITECTURE.md, Lessons): the positions a lesson speaks of are the model's length, and an MLA
// model's rotary columns are the tail of its config's query-key head.
#include "cli/LessonOptions.h"
#include "cli/ParamOptions.h"
#include "support/TestMain.h"

#include "check/models/ModelExamples.h"
#include "core/LessonNumbers.h"
#include "io/Lesson.h"
#include "io/LessonText.h"
#include "io/Preset.h"
#include "core/Params.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QLocale>
#include <QTest>

#include <cmath>
#include <numbers>
#include <cstdint>

namespace tst_lessonlengths {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

struct Read
{
    LessonOptions::Read read;
    bool ok = false;
};

Read readFor(const Lesson &lesson, const QStringList &arguments)
{
    QCommandLineParser parser;
    ParamOptions::add(parser);
    Read out;
    out.ok = parser.parse(QStringList {u"posenc"_s} + arguments);
    if (out.ok)
        out.read = LessonOptions::read(parser, lesson);
    return out;
}

bool close(double a, double b)
{
    return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
}

} // namespace

class TestLessonLengths : public QObject
{
    Q_OBJECT

private slots:
    void theLessonsPositionsAreTheModels();
    void anMlaModelsRotaryColumnsAreItsHeadsTail();
    void theFrequenciesAreCountedOverTheModelsPositions();
};

// A lesson's positions are the model's: float32-precision kept its own max_len 100000 and told
// Whisper (max_source_positions 1500) of p = 99999. Each sinusoidal preset's last position is its own
// max_len − 1 (the lesson's where the preset, of the embeddings only, has none), and the bound there p·w₀·2⁻²³ + 2⁻²⁵ (w₀ = 1 in each of them) is computed here; the
// 10⁻³ the bound reaches at ⌈(10⁻³ − 2⁻²⁵)·2²³⌉ = 8389 lies past Whisper's 1500 positions.
void TestLessonLengths::theLessonsPositionsAreTheModels()
{
    const Lesson &precision = *Lessons::find(u"float32-precision"_s);
    QCOMPARE(std::int64_t(std::ceil((1e-3 - std::ldexp(1.0, -25)) * std::ldexp(1.0, 23))), std::int64_t(8389));
    int checked = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const Read r = readFor(precision, {u"--preset"_s, preset.name});
        if (!r.ok || r.read.result.exitCode() != 0)
            continue;
        const QString plain = LessonText::plain(precision.explain(r.read.model).html);
        // A preset of the embeddings only (fairseq's, PyTorch's) has no length: the table stays the lesson's.
        const std::int64_t own
            = preset.params.value(u"max-len"_s, precision.session.params.value(u"max-len"_s)).toLongLong();
        QVERIFY2(own > 0, qPrintable(preset.name));
        QCOMPARE(r.read.model.params.maxLen, own);
        const double bound = double(own - 1) * std::ldexp(1.0, -23) + std::ldexp(1.0, -25);
        // The sinusoid's sentence says "near p = L − 1", RoPE's "pair 0's angle at p = L − 1"; a
        // timestep embedding's rows are timesteps t (its preset's title says so).
        const QString symbol = preset.title.contains(u"timestep embedding"_s) ? u"t"_s : u"p"_s;
        QVERIFY2(plain.contains(u"near %1 = %2 "_s.arg(symbol, QLocale(QLocale::English).toString(own - 1)))
                     || plain.contains(u"angle at %1 = %2 "_s.arg(symbol, QLocale(QLocale::English).toString(own - 1))),
                 qPrintable(preset.name + u": "_s + plain));
        QVERIFY2(preset.params.value(u"max-len"_s).isEmpty() || (!plain.contains(u"99999"_s) && !plain.contains(u"99,999"_s)),
                 qPrintable(preset.name + u": "_s + plain));
        const auto number = LessonNumbers::number(u"f32_bound"_s, r.read.model);
        QVERIFY(number && number->value);
        QVERIFY(close(*number->value, bound));
        // RoPE's bound passes bfloat16's 2⁻⁹ instead (tst_lessonfloat32rope).
        const bool sinusoid = r.read.model.params.encoding == Encoding::Sinusoidal;
        QVERIFY2(plain.contains(u"passes 10⁻³ at position"_s) == (sinusoid && own > 8389),
                 qPrintable(preset.name + u": "_s + plain));
        ++checked;
    }
    const Read whisper = readFor(precision, {u"--preset"_s, u"whisper-large-v3"_s});
    QCOMPARE(whisper.read.model.params.maxLen, std::int64_t(1500));
    const QString plain = LessonText::plain(precision.explain(whisper.read.model).html);
    QVERIFY2(plain.contains(u"near p = 1499 "_s) || plain.contains(u"near p = 1,499 "_s), qPrintable(plain));
    QVERIFY2(
        plain.contains(u"stays below 10⁻³ up to p = 1,499: it reaches 10⁻³ only at position 8,389, past L = 1,500"_s),
        qPrintable(plain));
    QVERIFY(checked >= 4);
}

// DeepSeek-V3's MLA rotates the last qk_rope_head_dim = 64 of a query-key head's qk_nope_head_dim +
// qk_rope_head_dim = 192 columns (DeepseekV3Attention, models/deepseek_v3/modeling_deepseek_v3.py:
// q_pass, q_rot = torch.split(q_states, [self.qk_nope_head_dim, self.qk_rope_head_dim], dim=-1)). Kimi
// K2 and DeepSeek-V3.2-Exp run it too; their presets named no config, and the lesson could not say so.
void TestLessonLengths::anMlaModelsRotaryColumnsAreItsHeadsTail()
{
    const Lesson &relative = *Lessons::find(u"rope-relative"_s);
    for (const QString &preset : {u"deepseek-v3"_s, u"kimi-k2"_s, u"deepseek-v3-2-exp"_s}) {
        const Read r = readFor(relative, {u"--preset"_s, preset});
        QVERIFY2(r.ok && r.read.result.exitCode() == 0, qPrintable(preset));
        const QJsonObject config = ModelExamples::find(r.read.model.configName)
            ? ModelExamples::find(r.read.model.configName)->config
            : QJsonObject();
        const int rope = config.value(u"qk_rope_head_dim"_s).toInt(), nope = config.value(u"qk_nope_head_dim"_s).toInt();
        QCOMPARE(rope, 64);
        QCOMPARE(nope, 128);
        const QString plain = LessonText::plain(relative.explain(r.read.model).html);
        QVERIFY2(plain.contains(u"the last r = %1 of a query or key head's %2 columns (its first %3 do not turn)"_s
                                    .arg(rope)
                                    .arg(rope + nope)
                                    .arg(nope)),
                 qPrintable(preset + u": "_s + plain));
    }
}

// frequencies kept its own max_len 256 and counted "382 of the 640 pairs turn less than once over these
// L positions" for Whisper, whose table has 1500: the pairs whose wavelength 2π/w_i exceeds the model's
// L, w_i = c·b^(−i/(k/2 − s)) (the paper's b^(−2i/k) at c = 1, s = 0; Whisper's shift s = 1), counted here.
void TestLessonLengths::theFrequenciesAreCountedOverTheModelsPositions()
{
    const Lesson &frequencies = *Lessons::find(u"frequencies"_s);
    int checked = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const Read r = readFor(frequencies, {u"--preset"_s, preset.name});
        if (!r.ok || r.read.result.exitCode() != 0 || !preset.params.contains(u"max-len"_s))
            continue;
        const Params &p = r.read.model.params;
        const std::int64_t own = preset.params.value(u"max-len"_s).toLongLong();
        QCOMPARE(p.maxLen, own);
        const std::int64_t pairs = p.peColumns() / 2;
        const double half = double(p.peColumns()) / 2.0 - p.sinusoidal.freqShift;
        std::int64_t slow = 0;
        for (std::int64_t i = 0; i < pairs; ++i) {
            const double w = p.sinusoidal.timestepScale * std::pow(p.sinusoidal.base, -double(i) / half);
            slow += 2.0 * std::numbers::pi / w > double(own);
        }
        const QString plain = LessonText::plain(frequencies.explain(r.read.model).html);
        const QString rows = preset.title.contains(u"timestep embedding"_s) ? u"timesteps"_s : u"positions"_s;
        QVERIFY2(plain.contains(u"no two of the L = %1 %2"_s.arg(QLocale(QLocale::English).toString(own), rows)),
                 qPrintable(preset.name + u": "_s + plain));
        QVERIFY2(plain.contains(u"%1 of the %2 pairs turn less than once"_s.arg(slow).arg(pairs)),
                 qPrintable(preset.name + u": "_s + plain));
        ++checked;
    }
    QVERIFY(checked >= 5);
    const Read whisper = readFor(frequencies, {u"--preset"_s, u"whisper-large-v3"_s});
    const QString plain = LessonText::plain(frequencies.explain(whisper.read.model).html);
    QVERIFY2(plain.contains(u"260 of the 640 pairs turn less than once"_s), qPrintable(plain));
}

POSENC_TEST_GUILESS_MAIN(TestLessonLengths)
} // namespace tst_lessonlengths
#include "tst_lessonlengths.moc"
