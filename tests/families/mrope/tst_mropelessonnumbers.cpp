// The numbers the two M-RoPE lessons quote ("Where is an image token?", "Which frequencies see
// width?"), each against float64 formulas and ids written here from HF transformers'
// get_rope_index (4.x and 5.x) and apply_multimodal_rotary_pos_emb / apply_interleaved_mrope, at
// the lessons' own parameters: the 0.0057 and 20.8 rad of the MRoPE-I argument among them.
#include "core/LessonNumbers.h"
#include "core/ParamText.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>

namespace tst_mropelessonnumbers {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

Params lessonParams(const QString &prompt)
{
    Params p;
    p.encoding = Encoding::Mrope;
    p.dModel = 128;
    p.maxLen = 64;
    p.rope.theta = 1e6;
    const QList<std::pair<QString, QString>> values
        = {{u"vision-positions"_s, u"qwen2.5-vl"_s}, {u"prompt"_s, prompt}, {u"mrope-section"_s, u"16,24,24"_s}};
    for (const auto &[key, text] : values) {
        if (const auto error = ParamText::set(p, key, text))
            qFatal("%s", qPrintable(error->sentence()));
    }
    return p;
}

double value(const QString &key, const Params &p)
{
    const auto number = LessonNumbers::number(key, p);
    if (!number || !number->value)
        qFatal("%s has no value: %s", qPrintable(key), number ? qPrintable(number->missing) : "unknown key");
    return *number->value;
}

QString text(const QString &key, const Params &p)
{
    return LessonNumbers::number(key, p)->text;
}

// inv_freq_j = 1 / theta^(2j / 128).
double inv(double theta, int j)
{
    return 1.0 / std::pow(theta, double(2 * j) / 128.0);
}

// <q, R q> / |q|^2 for q all ones when only the pairs in `turning` turn, by offset * inv_j.
double score(const std::vector<int> &turning, double offset, double theta)
{
    double sum = 64.0 - double(turning.size());
    for (const int j : turning)
        sum += std::cos(offset * inv(theta, j));
    return sum / 64.0;
}

std::vector<int> range(int first, int end, int step)
{
    std::vector<int> out;
    for (int j = first; j < end; j += step)
        out.push_back(j);
    return out;
}

} // namespace

class TestMropeLessonNumbers : public QObject
{
    Q_OBJECT

private slots:
    void whereIsAnImageToken();
    void whatAnImageCostsBeforeAVideo();
    void whichFrequenciesSeeWidth();
    void numbersSayWhyWithoutAnImage();
};

void TestMropeLessonNumbers::whereIsAnImageToken()
{
    // text:5, image 1x4x6 (2 x 3 merged at t = h = w = 5), text:3 (8..10), video 2x4x4 (grids at
    // t = 11 and 11 + trunc(1 · 1.0 · 2) = 13), text:2: 4.x at 14, 5.x at 11 + max(4, 4) / 2 = 13.
    const Params p = lessonParams(u"text:5,image:1x4x6,text:3,video:2x4x4,text:2"_s);
    QCOMPARE(value(u"mrope_tokens"_s, p), 24.0);
    QCOMPARE(value(u"mrope_image_tokens"_s, p), 6.0);
    QCOMPARE(value(u"mrope_image_rows"_s, p), 2.0);
    QCOMPARE(value(u"mrope_image_columns"_s, p), 3.0);
    QCOMPARE(value(u"mrope_image_start"_s, p), 5.0);
    QCOMPARE(value(u"mrope_image_next"_s, p), 8.0);
    QCOMPARE(value(u"mrope_image_cost"_s, p), 3.0); // max(2, 3), not 6
    QCOMPARE(value(u"mrope_video_tokens"_s, p), 8.0);
    QCOMPARE(value(u"mrope_video_grids"_s, p), 2.0);
    QCOMPARE(value(u"mrope_video_step"_s, p), 2.0);
    QCOMPARE(value(u"mrope_video_next"_s, p), 14.0);
    QCOMPARE(value(u"mrope_video_next_v4"_s, p), 14.0);
    QCOMPARE(value(u"mrope_video_next_v5"_s, p), 13.0);
    QCOMPARE(value(u"mrope_max_id"_s, p), 15.0);
    QCOMPARE(value(u"mrope_rope_deltas"_s, p), -8.0);
    QCOMPARE(text(u"mrope_rope_deltas"_s, p), u"−8"_s);
    // The first generated token: cache position 24 + rope_deltas −8 = 16, the max id + 1; with
    // rope_deltas lost it is at 24, 8 ids past where the model puts it.
    QCOMPARE(value(u"mrope_next_id"_s, p), 16.0);
    QCOMPARE(value(u"mrope_deltas_gap"_s, p), 8.0);
}

void TestMropeLessonNumbers::whatAnImageCostsBeforeAVideo()
{
    // get_rope_index moves its running start past each span alike: image 1x8x8 at t = h = w = 3
    // (4 x 4 merged, ids 3..6), the video straight after it at 7 (2 x 2 merged, grids at t = 7 and
    // 7 + trunc(1 · 1.0 · 2) = 9), its text at 4.x's max + 1 = 10. The image costs 7 − 3 = 4 =
    // max(4, 4), and what follows it is the video, not the text at 10 (the lesson said "the image
    // takes 7 positions ... the text after it starts at 10").
    const Params p = lessonParams(u"text:3,image:1x8x8,video:2x4x4,text:2"_s);
    QCOMPARE(value(u"mrope_image_start"_s, p), 3.0);
    QCOMPARE(value(u"mrope_image_next"_s, p), 7.0);
    QCOMPARE(value(u"mrope_image_cost"_s, p), 4.0);
    QCOMPARE(text(u"mrope_image_then"_s, p), u"the video"_s);
    QCOMPARE(value(u"mrope_video_next_v4"_s, p), 10.0);
    QCOMPARE(text(u"mrope_video_then"_s, p), u"the text"_s);
    // Two images in a row: the second is "the next image"; a video last has nothing after it.
    const Params images = lessonParams(u"text:1,image:1x4x4,image:1x4x6,video:1x4x4"_s);
    QCOMPARE(text(u"mrope_image_then"_s, images), u"the next image"_s);
    QCOMPARE(value(u"mrope_image_cost"_s, images), 2.0);
    QVERIFY(!LessonNumbers::number(u"mrope_video_then"_s, images)->present());
    QVERIFY(!LessonNumbers::number(u"mrope_video_next"_s, images)->present());
}

void TestMropeLessonNumbers::whichFrequenciesSeeWidth()
{
    const Params p = lessonParams(u"text:4,image:1x64x64,text:4"_s);
    // Chunked [16, 24, 24]: w owns pairs 40..63; interleaved: w owns 2, 5, ... below 72.
    QCOMPARE(value(u"mrope_w_pair_chunked"_s, p), 40.0);
    QCOMPARE(value(u"mrope_w_pair_interleaved"_s, p), 2.0);
    const double chunked = 32.0 * inv(1e6, 40), interleaved = 32.0 * inv(1e6, 2);
    QVERIFY(std::abs(value(u"mrope_w_turn_chunked"_s, p) - chunked) <= 1e-12 * chunked);
    QVERIFY(std::abs(value(u"mrope_w_turn_interleaved"_s, p) - interleaved) <= 1e-12 * interleaved);
    QCOMPARE(text(u"mrope_w_turn_chunked"_s, p), u"0.00569"_s);
    QCOMPARE(text(u"mrope_w_turn_interleaved"_s, p), u"20.8"_s);
    // The ratio of the two turns at the model's θ: inv(2)/inv(40) = θ^(38/64).
    QVERIFY(std::abs(value(u"mrope_w_turn_ratio"_s, p) - std::pow(1e6, 38.0 / 64.0))
            <= 1e-9 * std::pow(1e6, 38.0 / 64.0));
    QVERIFY(std::abs(value(u"mrope_score_w31_chunked"_s, p) - score(range(40, 64, 1), 31.0, 1e6)) <= 1e-12);
    QVERIFY(std::abs(value(u"mrope_score_h31_chunked"_s, p) - score(range(16, 40, 1), 31.0, 1e6)) <= 1e-12);
    QVERIFY(std::abs(value(u"mrope_score_w31_interleaved"_s, p) - score(range(2, 64, 3), 31.0, 1e6)) <= 1e-12);
    // Nearly blind: the width offset leaves the chunked score at 1 to four decimals.
    QVERIFY(value(u"mrope_score_w31_chunked"_s, p) > 0.99995);
    QVERIFY(value(u"mrope_score_w31_interleaved"_s, p) < 0.95);
}

void TestMropeLessonNumbers::numbersSayWhyWithoutAnImage()
{
    const Params p = lessonParams(u"text:9"_s);
    const auto number = LessonNumbers::number(u"mrope_image_cost"_s, p);
    QVERIFY(number && !number->value && !number->present());
    QVERIFY(number->text.isEmpty());
    QCOMPARE(number->missing, u"the prompt has no image"_s);
    // Without video or rope_deltas, their numbers are missing too, never 0 or −1 in a sentence.
    QVERIFY(!LessonNumbers::number(u"mrope_video_step"_s, p)->present());
    QVERIFY(!LessonNumbers::number(u"mrope_deltas_gap"_s, p)->present());
    QVERIFY(!LessonNumbers::number(u"mrope_image_next"_s, lessonParams(u"text:2,image:1x4x4"_s))->present());
    QVERIFY(LessonNumbers::number(u"mrope_video_step"_s, lessonParams(u"text:2,video:2x4x4,text:1"_s))->present());
    QVERIFY(!LessonNumbers::number(u"mrope_video_step"_s, lessonParams(u"text:2,video:1x4x4,text:1"_s))->present());
    Params bad = p;
    bad.mrope.section = {16, 24, 16};
    QVERIFY(!LessonNumbers::number(u"mrope_w_turn_chunked"_s, bad)->value);
}

POSENC_TEST_GUILESS_MAIN(TestMropeLessonNumbers)
} // namespace tst_mropelessonnumbers
#include "tst_mropelessonnumbers.moc"
