// float32-precision read for a RoPE model (docs/ARCHITECTURE.md, Lessons): the angle p·θ_i as
// transformers' LlamaRotaryEmbedding.forward forms it (models/llama/modeling_llama.py:
// inv_freq_expanded.float() @ position_ids_expanded.float() with autocast disabled, then emb.cos()
// and emb.sin() in float32, cast to the model's dtype), against float64. Every number the lesson
// states is computed here again from the preset's config, θ_i in float64 (the default θ^(−2i/d);
// llama3's bands as modeling_rope_utils' _compute_llama3_parameters blends them; linear's θ_i / f),
// the float32 angle fl(fl(p)·fl(θ_i)) in C++ float arithmetic.
#include "cli/LessonOptions.h"
#include "cli/ParamOptions.h"
#include "support/TestMain.h"

#include "core/LessonNumbers.h"
#include "core/NumberText.h"
#include "io/Lesson.h"
#include "io/LessonText.h"

#include <QCommandLineParser>
#include <QTest>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

namespace tst_lessonfloat32rope {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

LessonOptions::Read readFor(const Lesson &lesson, const QStringList &arguments, bool *ok)
{
    QCommandLineParser parser;
    ParamOptions::add(parser);
    *ok = parser.parse(QStringList {u"posenc"_s} + arguments);
    return *ok ? LessonOptions::read(parser, lesson) : LessonOptions::Read {};
}

// θ_i = θ^(−2i/d), then the preset's scaling: "linear" divides each by f; "llama3" divides the
// pairs whose wavelength passes L0 / low by f, keeps those under L0 / high, and blends between by
// s = (L0 / λ − low) / (high − low): (1 − s) θ_i / f + s θ_i.
std::vector<double> thetas(double base, int d, const QString &type, double f, double l0, double low, double high)
{
    std::vector<double> theta;
    for (int i = 0; i < d / 2; ++i) {
        const double t = std::pow(base, -2.0 * i / d);
        const double wavelength = 2.0 * std::numbers::pi / t;
        double scaled = t;
        if (type == u"linear"_s) {
            scaled = t / f;
        } else if (type == u"llama3"_s) {
            if (wavelength > l0 / low) {
                scaled = t / f;
            } else if (wavelength >= l0 / high) {
                const double s = (l0 / wavelength - low) / (high - low);
                scaled = (1.0 - s) * t / f + s * t;
            }
        }
        theta.push_back(scaled);
    }
    return theta;
}

} // namespace

class TestLessonFloat32Rope : public QObject
{
    Q_OBJECT

private slots:
    void theLessonStatesTheModelsFloat32Angles_data();
    void theLessonStatesTheModelsFloat32Angles();
};

void TestLessonFloat32Rope::theLessonStatesTheModelsFloat32Angles_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<double>("base");
    QTest::addColumn<int>("d");
    QTest::addColumn<qint64>("length");
    QTest::addColumn<QString>("type");
    QTest::addColumn<double>("factor");
    QTest::addColumn<QStringList>("flags");
    // The presets' configs: Mistral 7B v0.1 and Qwen3 8B unscaled, Llama 3.1 8B's llama3 ×8 over
    // 8192 (low 1, high 4), Gemma 3 4B's global layers' linear ×8, whose θ_0 = 1/8 is a power of two.
    const QStringList none;
    QTest::newRow("mistral-7b") << u"mistral-7b"_s << 10000.0 << 128 << qint64(32768) << u"default"_s << 1.0 << none;
    QTest::newRow("qwen3-8b") << u"qwen3-8b"_s << 1e6 << 128 << qint64(40960) << u"default"_s << 1.0 << none;
    QTest::newRow("llama-3-1-8b") << u"llama-3-1-8b"_s << 500000.0 << 128 << qint64(131072) << u"llama3"_s << 8.0
                                  << none;
    QTest::newRow("gemma-3-4b") << u"gemma-3-4b"_s << 1e6 << 256 << qint64(131072) << u"linear"_s << 8.0 << none;
    // Linear ×6: θ_0 = 1/6 is no power of two, and pair 0's angle rounds.
    QTest::newRow("gemma-3-4b ×6") << u"gemma-3-4b"_s << 1e6 << 256 << qint64(131072) << u"linear"_s << 6.0
                                   << QStringList {u"--rope-factor"_s, u"6"_s};
}

void TestLessonFloat32Rope::theLessonStatesTheModelsFloat32Angles()
{
    QFETCH(QString, preset);
    QFETCH(double, base);
    QFETCH(int, d);
    QFETCH(qint64, length);
    QFETCH(QString, type);
    QFETCH(double, factor);
    QFETCH(QStringList, flags);
    const Lesson &lesson = *Lessons::find(u"float32-precision"_s);
    bool ok = false;
    const LessonOptions::Read r = readFor(lesson, QStringList {u"--preset"_s, preset} + flags, &ok);
    QVERIFY(ok);
    QVERIFY2(r.result.exitCode() == 0, qPrintable(r.result.usage));
    QCOMPARE(qint64(r.model.params.maxLen), length);

    const std::vector<double> theta = thetas(base, d, type, factor, 8192.0, 1.0, 4.0);
    const std::int64_t last = length - 1;
    // The largest error of a pair's float32-angle sin or cos at the last position, in float64.
    double largest = 0.0;
    std::int64_t largestPair = -1;
    for (std::size_t i = 0; i < theta.size(); ++i) {
        const float angle32 = static_cast<float>(last) * static_cast<float>(theta[i]);
        const double angle = double(last) * theta[i];
        const double e
            = std::max(std::abs(double(static_cast<float>(std::sin(double(angle32)))) - std::sin(angle)),
                       std::abs(double(static_cast<float>(std::cos(double(angle32)))) - std::cos(angle)));
        if (e > largest) {
            largest = e;
            largestPair = std::int64_t(i);
        }
    }
    // The bound p·θ_0·2⁻²³ + 2⁻²⁵ at L − 1 (attention factor 1 for these types), and the first
    // position where it reaches 2⁻⁹, bfloat16's rounding of a value near ±1.
    const double bound = double(last) * theta.front() * std::ldexp(1.0, -23) + std::ldexp(1.0, -25);
    const auto reach = std::int64_t(std::ceil((std::ldexp(1.0, -9) - std::ldexp(1.0, -25)) / (theta.front() * std::ldexp(1.0, -23))));
    QVERIFY2(largest <= bound, qPrintable(u"%1 over the bound %2"_s.arg(largest).arg(bound)));

    const QString plain = LessonText::plain(lesson.explain(r.model).html);
    const auto stated = [&](const QString &key, double wanted, double tolerance) {
        const auto n = LessonNumbers::number(key, r.model);
        QVERIFY2(n && n->value, qPrintable(key));
        QVERIFY2(std::abs(*n->value - wanted) <= tolerance,
                 qPrintable(u"%1: %2, computed %3"_s.arg(key).arg(*n->value, 0, 'g', 17).arg(wanted, 0, 'g', 17)));
        QVERIFY2(plain.contains(n->text), qPrintable(key + u" "_s + n->text + u": "_s + plain));
    };
    stated(u"rope_f32_bound"_s, bound, 1e-15);
    stated(u"rope_f32_error"_s, largest, 1e-9);
    stated(u"rope_f32_error_pair"_s, double(largestPair), 0.0);
    stated(u"rope_f32_reach_bf16"_s, double(reach), 0.0);
    stated(u"rope_pairs"_s, double(d / 2), 0.0);
    // Pair 0's float32 angle at L − 1 and the spacing of float32 numbers there (numpy.spacing of
    // the float32 product), which is p's own spacing only where θ_0 = 1.
    const float product = static_cast<float>(last) * static_cast<float>(theta.front());
    stated(u"rope_f32_product"_s, double(product), 0.0);
    stated(u"rope_f32_spacing"_s, double(std::nextafter(product, INFINITY) - product), 0.0);
    // θ_0 a power of two: fl(p)·θ_0 is exact for every p < 2²⁴, so pair 0 has no error at all.
    int exponent = 0;
    const bool power = std::frexp(theta.front(), &exponent) == 0.5;
    bool exact = true;
    for (std::int64_t q = 0; q <= last && exact; q += 97)
        exact = double(static_cast<float>(q) * static_cast<float>(theta.front())) == double(q) * theta.front();
    QCOMPARE(exact, power);
    QVERIFY2(plain.contains(u"LlamaRotaryEmbedding.forward"_s) && plain.contains(u"autocast disabled"_s), qPrintable(plain));
    QVERIFY2(plain.contains(u"below L = "_s) == (reach < length), qPrintable(plain));
    QVERIFY2(plain.contains(u"past L = "_s) == (reach >= length), qPrintable(plain));
    QVERIFY2(plain.contains(u"Only the first pair escapes"_s) == power, qPrintable(plain));
    // Where pair 0's angle is exact, no sentence before says it rounds: the spacing and the bound
    // are those of the angles near p·θ_0, under which every other pair's stays ("pair 0's angle ...
    // whose float32 neighbours are 0.00781 apart, and a cos or sin can be off by up to 0.0156 there",
    // then "Only the first pair escapes").
    QVERIFY2(plain.contains(u"pair 0's angle"_s) == !power, qPrintable(plain));
    QVERIFY2(plain.contains(u"Even the first pair rounds its angle"_s) == !power, qPrintable(plain));
    // None of the sinusoid's code or symbols.
    for (const QString &sinusoid : {u"position * div_term"_s, u"w_0"_s, u"torch.exp"_s})
        QVERIFY2(!plain.contains(sinusoid), qPrintable(sinusoid + u": "_s + plain));
    QVERIFY(lesson.code.forModel(r.model).contains(u"inv_freq_expanded.float()"_s));
}

POSENC_TEST_GUILESS_MAIN(TestLessonFloat32Rope)
} // namespace tst_lessonfloat32rope
#include "tst_lessonfloat32rope.moc"
