// Qwen2-VL's processors, as --prompt's sizes in pixels and seconds meet them: each image and video
// becomes the grid transformers' processors give it (models/qwen2_vl/image_processing_qwen2_vl.py,
// smart_resize; models/qwen2_vl/video_processing_qwen2_vl.py, Qwen2VLVideoProcessor.sample_frames
// and patchify), checked against the rules written here in integers and float64: Python's round
// (halves to the even integer), the area scaled into [min_pixels, max_pixels], frames = seconds ·
// fps clamped to [4, 768] and floored to pairs, grid_t = frames / 2, second_per_grid = 2 / fps.
#include "core/mrope/MropeProcessor.h"
#include "core/mrope/MropePrompt.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>

namespace tst_mropeprocessor {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// Python's round(x) for x >= 0: the nearest integer, a half to the even one.
std::int64_t pythonRound(double x)
{
    const double below = std::floor(x);
    const double fraction = x - below;
    if (fraction > 0.5 || (fraction == 0.5 && std::fmod(below, 2.0) != 0.0))
        return std::int64_t(below) + 1;
    return std::int64_t(below);
}

std::pair<std::int64_t, std::int64_t> resized(std::int64_t h, std::int64_t w, std::int64_t factor, std::int64_t least,
                                              std::int64_t most)
{
    std::int64_t hb = pythonRound(double(h) / double(factor)) * factor;
    std::int64_t wb = pythonRound(double(w) / double(factor)) * factor;
    if (hb * wb > most) {
        const double beta = std::sqrt(double(h) * double(w) / double(most));
        hb = std::max(factor, std::int64_t(std::floor(double(h) / beta / double(factor))) * factor);
        wb = std::max(factor, std::int64_t(std::floor(double(w) / beta / double(factor))) * factor);
    } else if (hb * wb < least) {
        const double beta = std::sqrt(double(least) / (double(h) * double(w)));
        hb = std::int64_t(std::ceil(double(h) * beta / double(factor))) * factor;
        wb = std::int64_t(std::ceil(double(w) * beta / double(factor))) * factor;
    }
    return {hb, wb};
}

} // namespace

class TestMropeProcessor : public QObject
{
    Q_OBJECT

private slots:
    void imagesBecomeTheProcessorsGrids_data();
    void imagesBecomeTheProcessorsGrids();
    void videosSampleFramesAtTheirRate_data();
    void videosSampleFramesAtTheirRate();
    void aPromptInPixelsIsThePromptInGrids();
    void refusesWhatTheProcessorRefuses();
};

void TestMropeProcessor::imagesBecomeTheProcessorsGrids_data()
{
    QTest::addColumn<qint64>("h");
    QTest::addColumn<qint64>("w");
    QTest::addColumn<qint64>("merge");
    QTest::newRow("448 x 448: 32 x 32 patches") << qint64(448) << qint64(448) << qint64(2);
    QTest::newRow("a half rounds to even: 42 is 1.5 factors") << qint64(42) << qint64(500) << qint64(2);
    QTest::newRow("2.5 factors rounds down to 2") << qint64(70) << qint64(300) << qint64(2);
    QTest::newRow("3.5 factors rounds up to 4") << qint64(98) << qint64(300) << qint64(2);
    QTest::newRow("over max_pixels: 4000 x 3000") << qint64(4000) << qint64(3000) << qint64(2);
    QTest::newRow("below min_pixels: 20 x 30") << qint64(20) << qint64(30) << qint64(2);
    QTest::newRow("a long strip, 28 x 5000") << qint64(28) << qint64(5000) << qint64(2);
    QTest::newRow("merge 1: factor 14") << qint64(333) << qint64(500) << qint64(1);
    QTest::newRow("merge 4: factor 56") << qint64(1000) << qint64(700) << qint64(4);
}

void TestMropeProcessor::imagesBecomeTheProcessorsGrids()
{
    QFETCH(qint64, h);
    QFETCH(qint64, w);
    QFETCH(qint64, merge);
    const auto [hb, wb] = resized(h, w, 14 * merge, 56 * 56, 28 * 28 * 1280);
    const auto grid = MropeProcessor::image(h, w, merge);
    QVERIFY(grid);
    QCOMPARE(grid->t, 1);
    QCOMPARE(grid->h, hb / 14);
    QCOMPARE(grid->w, wb / 14);
    // Whole merged patches, within the processor's bounds where the image allows it.
    QCOMPARE(grid->h % merge, 0);
    QCOMPARE(grid->w % merge, 0);
}

void TestMropeProcessor::videosSampleFramesAtTheirRate_data()
{
    QTest::addColumn<double>("seconds");
    QTest::addColumn<double>("fps");
    QTest::addColumn<qint64>("frames");
    QTest::newRow("2 s at 2 fps: 4 frames") << 2.0 << 2.0 << qint64(4);
    QTest::newRow("1 s at 2 fps: min_frames 4") << 1.0 << 2.0 << qint64(4);
    QTest::newRow("3.3 s at 2 fps: 6.6 floored to pairs") << 3.3 << 2.0 << qint64(6);
    QTest::newRow("10 s at 1 fps") << 10.0 << 1.0 << qint64(10);
    QTest::newRow("7 s at 1 fps: an odd count floored") << 7.0 << 1.0 << qint64(6);
    QTest::newRow("1000 s at 2 fps: max_frames 768") << 1000.0 << 2.0 << qint64(768);
}

void TestMropeProcessor::videosSampleFramesAtTheirRate()
{
    QFETCH(double, seconds);
    QFETCH(double, fps);
    QFETCH(qint64, frames);
    // seconds · fps, clamped, floored to a multiple of temporal_patch_size 2.
    const double clamped = std::min(std::max(seconds * fps, 4.0), 768.0);
    QCOMPARE(qint64(std::floor(clamped / 2.0)) * 2, frames);
    QCOMPARE(MropeProcessor::sampledFrames(seconds, fps), frames);
    const auto grid = MropeProcessor::video(448, 448, seconds, fps, 2);
    QVERIFY(grid);
    QCOMPARE(grid->t, frames / 2);
    QCOMPARE(grid->secondPerGrid, 2.0 / fps);
    // A video's pixels are bounded by the video processor's own [128·28², 768·28²].
    const auto [hb, wb] = resized(448, 448, 28, 128 * 28 * 28, 28 * 28 * 768);
    QCOMPARE(grid->h, hb / 14);
    QCOMPARE(grid->w, wb / 14);
}

void TestMropeProcessor::aPromptInPixelsIsThePromptInGrids()
{
    const auto pixels = MropePrompt::parse(u"text:3,image:448x448px,video:448x448px@2s@2fps,text:1"_s);
    const auto grids = MropePrompt::parse(u"text:3,image:1x32x32,video:2x32x32@1,text:1"_s);
    QVERIFY(std::holds_alternative<std::vector<MropeSegment>>(pixels));
    auto segments = std::get<std::vector<MropeSegment>>(pixels);
    for (MropeSegment &s : segments) {
        QCOMPARE(s.fromPixels, s.kind != MropeSegment::Kind::Text);
        s.fromPixels = false;
    }
    QCOMPARE(segments, std::get<std::vector<MropeSegment>>(grids));
    // The frames a second are 2 unless told: 2 s is 4 frames, 2 grids.
    const auto defaultFps = MropePrompt::parse(u"video:448x448px@2s"_s);
    QCOMPARE(std::get<std::vector<MropeSegment>>(defaultFps).front().t, 2);
    // The merge size makes the factor: 448 px at merge 4 (factor 56) is 8 merged patches of 4.
    const auto merged = MropePrompt::parse(u"image:448x448px"_s, 4);
    QCOMPARE(std::get<std::vector<MropeSegment>>(merged).front().h, 32);
}

void TestMropeProcessor::refusesWhatTheProcessorRefuses()
{
    QVERIFY(!MropeProcessor::image(10, 2500, 2)); // aspect ratio 250 > 200
    for (const QString &bad :
         {u"image:448px"_s, u"image:0x448px"_s, u"image:448x448px@2s"_s, u"video:448x448px"_s, u"video:448x448px@2"_s,
          u"video:448x448px@2s@0fps"_s, u"video:448x448px@-1s"_s, u"image:10x2500px"_s})
        QVERIFY2(std::holds_alternative<QString>(MropePrompt::parse(bad)), qPrintable(bad));
    // Qwen3-VL's processor has other patches: its grids are given as they are.
    MropeParams qwen3;
    qwen3.vision = MropeVision::Qwen3Vl;
    qwen3.prompt = u"text:2,image:448x448px"_s;
    const auto built = MropeLayout::build(qwen3);
    QVERIFY(std::holds_alternative<QString>(built));
    QVERIFY(std::get<QString>(built).contains(u"Qwen3-VL"_s));
}

POSENC_TEST_GUILESS_MAIN(TestMropeProcessor)
} // namespace tst_mropeprocessor
#include "tst_mropeprocessor.moc"
