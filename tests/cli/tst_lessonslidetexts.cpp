// Every lesson as a lecturer puts it on a slide (issue 58): `posenc export --lesson NAME [--preset P]
// --size slide --font-size 14`, and on a 4:3 slide 25.4 cm wide, read for its own model and for
// models of other families, and read back from its SVG as a reader sees it (docs/ARCHITECTURE.md,
// Exporting): every text at 14 pt (a table's cells down to 10.5), none overlapping another, outside
// the page or cut by its clip. A model a lesson does not apply to (ALiBi's lesson for a rotary
// model) is refused, and its row skipped.
#include "CliRun.h"
#include "support/LongVariant.h"
#include "support/SvgTexts.h"
#include "support/TestMain.h"

#include <QDir>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>
#include <utility>

namespace tst_lessonslidetexts {
using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

// The lesson's own model, the presets of the acceptance, and one or two of each other family, so
// that every lesson is read for three models at least.
const QStringList &presets()
{
    static const QStringList names {u""_s,
                                    u"qwen2-5-7b"_s,
                                    u"llama-4-scout"_s,
                                    u"transformer-big"_s,
                                    u"annotated-transformer"_s,
                                    u"bloom-560m"_s,
                                    u"mpt-7b"_s,
                                    u"flan-t5-base"_s,
                                    u"deberta-v3-base"_s,
                                    u"qwen2-vl-7b"_s,
                                    u"qwen3-vl-8b"_s,
                                    u"llama-3-1-8b"_s,
                                    u"gemma-3-4b"_s};
    return names;
}

// Each lesson with the two other models it was looked at for as a 14-pt slide (issue 58's
// acceptance): dropout-on-sum's slide for MAE drew 7 of its 10 heatmaps and no title,
// what-dropout-does' dropped its title and the mask M its text explains, Whisper's dropout-on-sum
// its title.
const QList<std::pair<QString, QStringList>> &lookedAt()
{
    static const QList<std::pair<QString, QStringList>> rows {
        {u"dropout-on-sum"_s, {u"whisper-large-v3"_s, u"mae-vit-b-16"_s}},
        {u"masked-dropout"_s, {u"annotated-transformer"_s, u"dit-xl-2"_s}},
        {u"sum-vs-concat"_s, {u"transformer-big"_s, u"whisper-large-v3"_s}},
        {u"why-sqrt-d"_s, {u"pytorch-embedding"_s, u"whisper-large-v3"_s}},
        {u"what-dropout-does"_s, {u"llama-4-scout"_s, u"bloom-560m"_s}},
        {u"frequencies"_s, {u"transformer-big"_s, u"whisper-large-v3"_s}},
        {u"relative-position"_s, {u"tensorflow-tutorial"_s, u"whisper-large-v3"_s}},
        {u"float32-precision"_s, {u"transformer-base"_s, u"whisper-large-v3"_s}},
        {u"rope-relative"_s, {u"llama-4-scout"_s, u"qwen2-5-7b"_s}},
        // LongRoPE's slides lost their whole title and their key's "(chosen)" and attention factors,
        // its 10⁸ tick label meeting the title; Phi-4 mini's rope-layouts kept only the title's
        // subject, not the layout the lesson asks about.
        {u"rope-scaling"_s, {u"llama-3-1-8b"_s, u"qwen2-5-7b"_s, u"phi-3-mini-128k"_s, u"phi-4-mini"_s}},
        {u"rope-decay"_s, {u"llama-4-scout"_s, u"qwen2-5-7b"_s}},
        {u"rope-layouts"_s, {u"gpt-j-6b"_s, u"deepseek-v3"_s, u"phi-4-mini"_s, u"gemma-4"_s}},
        {u"alibi"_s, {u"bloom-560m"_s, u"mpt-7b"_s}},
        {u"buckets"_s, {u"flan-t5-base"_s, u"deberta-v3-base"_s}},
        {u"families"_s, {u"llama-4-scout"_s, u"t5-base"_s}},
        {u"many-layers"_s, {u"gemma-3-4b"_s, u"qwen3-next-80b"_s}},
        {u"mrope-image-tokens"_s, {u"qwen2-vl-7b"_s, u"qwen3-vl-8b"_s}},
        {u"mrope-width"_s, {u"qwen2-5-vl-7b"_s, u"qwen3-vl-8b"_s}},
        {u"nope-order"_s, {u"llama-4-scout"_s, u"command-r7b"_s}},
        {u"left-padding"_s, {u"llama-4-scout"_s, u"bloom-560m"_s, u"deberta-v3-base"_s}},
        {u"packing"_s, {u"qwen2-5-7b"_s, u"t5-base"_s}},
    };
    return rows;
}

// A 16:9 slide and a 4:3 one, 25.4 cm wide.
const QStringList &slideSizes()
{
    static const QStringList sizes {u"slide"_s, u"25.4x19.05cm"_s};
    return sizes;
}

QString slideKey(const QString &lesson, const QString &preset, const QString &size)
{
    return lesson + u'|' + preset + u'|' + size;
}

// The slides everyPanelAndTheTitle reads.
const QSet<QString> &readLater()
{
    static const QSet<QString> keys = [] {
        QSet<QString> all;
        for (const QString &size : slideSizes())
            for (const auto &[lesson, others] : lookedAt())
                for (const QString &preset : QStringList {QString()} + others)
                    all.insert(slideKey(lesson, preset, size));
        return all;
    }();
    return keys;
}

// A slide as posenc export wrote it: the run, and the SVG file's bytes (none where it failed).
struct Slide
{
    Run run;
    QByteArray svg;
};

// The lesson's slide on `size` at 14 pt for `preset` (its own model where empty).
Slide exportSlide(const QString &lesson, const QString &preset, const QString &size, const QStringList &more = {})
{
    QTemporaryDir dir;
    if (!dir.isValid())
        return {{-1, {}, u"no temporary directory"_s}, {}};
    const QString svg = dir.filePath(u"slide.svg"_s);
    QStringList arguments {u"export"_s,      u"--lesson"_s, lesson,       u"--size"_s, size,
                           u"--font-size"_s, u"14"_s,       u"--quiet"_s, u"-o"_s,     svg};
    if (!preset.isEmpty())
        arguments += {u"--preset"_s, preset};
    arguments += more;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    Slide slide {posenc(arguments, environment), {}};
    QFile file(svg);
    if (slide.run.exitCode == 0 && file.open(QIODevice::ReadOnly))
        slide.svg = file.readAll();
    return slide;
}

// Each slide is exported once for both test functions: the slides everyPanelAndTheTitle reads that
// everyTextWholeAndApart exported before it (a lesson's own model and the presets of both lists,
// at both sizes: 92 of its 136) are kept until it reads them.
QHash<QString, Slide> &keptSlides()
{
    static QHash<QString, Slide> slides;
    return slides;
}

} // namespace

class TestLessonSlideTexts : public QObject
{
    Q_OBJECT

private slots:
    void everyTextWholeAndApart_data();
    void everyTextWholeAndApart();
    void everyPanelAndTheTitle_data();
    void everyPanelAndTheTitle();
    void aSlideNamesItsModel_data();
    void aSlideNamesItsModel();
    void aSlideSaysTheModelOnce_data();
    void aSlideSaysTheModelOnce();
    void dropoutModesReadAlikeOnEverySlide();
    void dropoutModesNumberTheSameColumns_data();
    void dropoutModesNumberTheSameColumns();
    void leftPaddingsEffectIsDrawnOnItsTokensScale_data();
    void leftPaddingsEffectIsDrawnOnItsTokensScale();
    void ropeLayoutsKeyStandsInOneRow_data();
    void ropeLayoutsKeyStandsInOneRow();
};

void TestLessonSlideTexts::everyTextWholeAndApart_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("size");
    const Run list = posenc({u"lessons"_s});
    QCOMPARE(list.exitCode, 0);
    QStringList lessons;
    for (const QString &line : list.out.split(u'\n', Qt::SkipEmptyParts))
        lessons.append(line.section(u'\t', 0, 0));
    QVERIFY(lessons.size() >= 20);
    for (const QString &size : slideSizes())
        for (const QString &lesson : std::as_const(lessons))
            for (const QString &preset : presets())
                QTest::addRow("%s %s %s", qPrintable(lesson), preset.isEmpty() ? "default" : qPrintable(preset),
                              size == u"slide"_s ? "16:9" : "4:3")
                    << lesson << preset << size;
}

// CI's run reads every model's 16:9 slide and, at 4:3, the slides everyPanelAndTheTitle reads (each
// lesson's own model and those of the acceptance among the presets); the other models' 4:3 slides,
// 227 of its 546 rows (69 slides drawn, the others refused: a model the lesson does not apply to),
// a process each, are the long variant's (tst_lessonslidetexts_long), by hand before a release.
void TestLessonSlideTexts::everyTextWholeAndApart()
{
    QFETCH(QString, lesson);
    QFETCH(QString, preset);
    QFETCH(QString, size);
    POSENC_ROWS_IN_CI_WHERE(size == slideSizes().front() || readLater().contains(slideKey(lesson, preset, size)));
    const Slide slide = exportSlide(lesson, preset, size);
    const Run &run = slide.run;
    if (run.exitCode != 0 && run.err.contains(u"the lesson %1 needs"_s.arg(lesson)))
        QSKIP("the lesson does not apply to this model");
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(!slide.svg.isEmpty());
    if (readLater().contains(slideKey(lesson, preset, size)))
        keptSlides().insert(slideKey(lesson, preset, size), slide);
    const SvgTexts::Page page = SvgTexts::read(slide.svg);
    QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
    QVERIFY(!page.texts.empty());
    // The words and numbers in a table's cells may be smaller, down to three quarters of the size
    // asked (CellNumbers::kMinFontScale: 10.5 pt, read from the back of a room).
    const QStringList problems = SvgTexts::problemsOf(page, 14.0, 0.75 * 14.0);
    const QString row = QString::fromLatin1(QTest::currentDataTag());
    if (!problems.isEmpty())
        qInfo("%s: %s", qPrintable(row), qPrintable(problems.join(u"; "_s)));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; "_s)));
}

void TestLessonSlideTexts::everyPanelAndTheTitle_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("size");
    for (const QString &size : slideSizes())
        for (const auto &[lesson, others] : lookedAt())
            for (const QString &preset : QStringList {QString()} + others)
                QTest::addRow("%s %s %s", qPrintable(lesson), preset.isEmpty() ? "default" : qPrintable(preset),
                              size == u"slide"_s ? "16:9" : "4:3")
                    << lesson << preset << size;
}

// The slide draws every panel of its figures, none left out for room (posenc export says which it
// left out, LessonPage::panelsLeftOut), and its main figure's title: the first figure's title the
// file names (FigureFile::documentTitle, the titles joined by "; "), drawn in bold, its first two
// parts whole (its subject and what follows it: the layout rope-layouts asks about, the model's θ
// rope-scaling stretches; FigureRoom shortens a title to its first parts before it gives it up).
// A title wrapped or drawn in runs of glyphs is read joined. Where the main figure keys its lines,
// the chosen one is drawn named so ("llama3 (chosen)", the key's words the text reads from).
void TestLessonSlideTexts::everyPanelAndTheTitle()
{
    POSENC_ROWS_IN_CI_WHERE(true);
    QFETCH(QString, lesson);
    QFETCH(QString, preset);
    QFETCH(QString, size);
    const Slide slide = keptSlides().contains(slideKey(lesson, preset, size))
        ? keptSlides().take(slideKey(lesson, preset, size))
        : exportSlide(lesson, preset, size);
    const Run &run = slide.run;
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    // The families figure held six of its eight panels on a 14-pt 16:9 slide, in two columns
    // (FamiliesRoom::held; its title said "six of eight families"): it sets all eight in four.
    QVERIFY2(!run.err.contains(u"panels left out"_s), qPrintable(run.err));
    const QByteArray &bytes = slide.svg;
    QVERIFY(!bytes.isEmpty());
    QXmlStreamReader xml(bytes);
    QString titles;
    while (!xml.atEnd() && titles.isEmpty())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("title"))
            titles = xml.readElementText();
    // Its parts, each read whole: a title wrapped at a part's " · " draws the parts on two lines.
    const QStringList parts = titles.section(u"; "_s, 0, 0).split(u"  ·  "_s).mid(0, 2);
    QVERIFY2(!parts.isEmpty() && !parts.front().trimmed().isEmpty(), qPrintable(titles));
    const SvgTexts::Page page = SvgTexts::read(bytes);
    QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
    static const QRegularExpression space(u"\\s+"_s);
    QString bold;
    for (const SvgTexts::Text &text : page.texts)
        bold += text.bold ? text.text : QString();
    const QString drawn = QString(bold).remove(space);
    const bool titled = std::all_of(parts.cbegin(), parts.cend(),
                                    [&](const QString &part) { return drawn.contains(QString(part).remove(space)); });
    // left-padding's keys for BLOOM keep off its padding bands (LegendPlacementDrawn weighs shades as
    // data) and stand in rows under their plots; its title kept its subject alone ("Position ids
    // never read", not "· 2 rows × 32,768 columns") until its terse shape held one line with it.
    QVERIFY2(titled, qPrintable(u"no title \"%1\" drawn; bold: %2"_s.arg(parts.join(u"  ·  "_s), bold)));
    if (lesson == u"rope-scaling"_s) {
        QString all;
        for (const SvgTexts::Text &text : page.texts)
            all += text.text;
        QVERIFY2(QString(all).remove(space).contains(u"(chosen):"_s), qPrintable(all));
    }
}

void TestLessonSlideTexts::aSlideNamesItsModel_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QStringList>("flags");
    QTest::newRow("rope-scaling qwen2-5-7b") << u"rope-scaling"_s << u"qwen2-5-7b"_s << QStringList();
    QTest::newRow("rope-scaling llama-3-1-8b") << u"rope-scaling"_s << u"llama-3-1-8b"_s << QStringList();
    QTest::newRow("sum-vs-concat whisper-large-v3") << u"sum-vs-concat"_s << u"whisper-large-v3"_s << QStringList();
    QTest::newRow("left-padding bloom-560m") << u"left-padding"_s << u"bloom-560m"_s << QStringList();
    QTest::newRow("alibi mpt-7b") << u"alibi"_s << u"mpt-7b"_s << QStringList();
    // Its line once gave way for the six panels of what-dropout-does (LessonPage::build).
    QTest::newRow("what-dropout-does llama-4-scout") << u"what-dropout-does"_s << u"llama-4-scout"_s << QStringList();
    // And for a model whose colour scale's numbers (0.04) are wider.
    QTest::newRow("what-dropout-does qwen2-vl-7b") << u"what-dropout-does"_s << u"qwen2-vl-7b"_s << QStringList();
    // Where the page holds no line beside every panel and title, the main figure's title names the
    // model first: why-sqrt-d's slide for the fairseq preset and dropout-on-sum's for MAE named none.
    QTest::newRow("why-sqrt-d fairseq-init") << u"why-sqrt-d"_s << u"fairseq-init"_s << QStringList();
    QTest::newRow("why-sqrt-d pytorch-embedding") << u"why-sqrt-d"_s << u"pytorch-embedding"_s << QStringList();
    QTest::newRow("dropout-on-sum mae-vit-b-16") << u"dropout-on-sum"_s << u"mae-vit-b-16"_s << QStringList();
    // And where neither is free, the one that leaves out least: left-padding's slide for its own
    // Llama 4 Scout, two figures of three panels each, named no model.
    QTest::newRow("left-padding, its own model") << u"left-padding"_s << QString() << QStringList();
    QTest::newRow("rope-scaling, its factor changed")
        << u"rope-scaling"_s << QString() << QStringList {u"--rope-factor"_s, u"2"_s};
}

// A lesson's slide says which model it shows, in a line across its top above the figures' titles:
// the model its text names (posenc lessons NAME --json's "model"), with the RoPE scaling its preset
// gives (resources/presets: the type's word and its factor); none where a flag changed the model's
// parameters, which its text calls "this model". Where that line would cost a panel or a title, the
// main figure's title, in bold, begins with the same words instead; where that costs more than the
// line, the line stays: a slide read for a named model never leaves the name out.
void TestLessonSlideTexts::aSlideNamesItsModel()
{
    POSENC_ROWS_IN_CI_WHERE(true);
    QFETCH(QString, lesson);
    QFETCH(QString, preset);
    QFETCH(QStringList, flags);
    const Slide slide = exportSlide(lesson, preset, u"slide"_s, flags);
    QVERIFY2(slide.run.exitCode == 0, qPrintable(slide.run.err));
    QStringList read {u"lessons"_s, lesson, u"--json"_s};
    if (!preset.isEmpty())
        read += {u"--preset"_s, preset};
    const Run text = posenc(read + flags);
    QCOMPARE(text.exitCode, 0);
    const QString model = QJsonDocument::fromJson(text.out.toUtf8()).object().value(u"model"_s).toString();
    const SvgTexts::Page page = SvgTexts::read(slide.svg);
    QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
    QVERIFY(!page.texts.empty());
    // The top line: the texts whose boxes begin within a unit of the highest.
    double top = page.texts.front().box.top();
    for (const SvgTexts::Text &each : page.texts)
        top = std::min(top, each.box.top());
    QString line;
    bool bold = false;
    for (const SvgTexts::Text &each : page.texts)
        if (each.box.top() < top + 1.0) {
            line += each.text;
            bold |= each.bold;
        }
    static const QRegularExpression space(u"\\s+"_s);
    line.remove(space);
    if (flags.isEmpty())
        QVERIFY2(!model.isEmpty(), qPrintable(text.out));
    if (model.isEmpty()) {
        QVERIFY2(bold, qPrintable(u"a line above the title with no model named: %1"_s.arg(line)));
        return;
    }
    QVERIFY2(line.startsWith(QString(model).remove(space)),
             qPrintable(u"top line '%1', the text's model '%2'"_s.arg(line, model)));
    if (preset.isEmpty())
        return;
    const QStringList files = QDir(QStringLiteral(POSENC_PRESETS)).entryList({u"*-"_s + preset + u".json"_s});
    QCOMPARE(files.size(), 1);
    QFile file(QDir(QStringLiteral(POSENC_PRESETS)).filePath(files.front()));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject params = QJsonDocument::fromJson(file.readAll()).object().value(u"params"_s).toObject();
    const QString type = params.value(u"rope-type"_s).toString();
    if (!type.isEmpty() && type != u"default"_s) {
        QVERIFY2(line.contains(type), qPrintable(line));
        QVERIFY2(line.contains(u"factor"_s + params.value(u"rope-factor"_s).toString()), qPrintable(line));
    } else if (!bold) {
        // The model's name alone, or with whose dropout p the figures show where it is not the
        // model's (LessonPage::subtitle).
        const QString name = QString(model).remove(space);
        QVERIFY2(line == name || (line.startsWith(name + u"·p="_s) && line.endsWith(u",thelesson's"_s)),
                 qPrintable(line));
    } else {
        QVERIFY2(line.startsWith(QString(model).remove(space) + u"·"_s), qPrintable(line));
    }
}

void TestLessonSlideTexts::aSlideSaysTheModelOnce_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("size");
    for (const QString &size : slideSizes()) {
        QTest::addRow("rope-decay qwen2-5-7b %s", qPrintable(size)) << u"rope-decay"_s << u"qwen2-5-7b"_s << size;
        QTest::addRow("many-layers modernbert-base %s", qPrintable(size))
            << u"many-layers"_s << u"modernbert-base"_s << size;
        QTest::addRow("rope-scaling phi-3-mini-128k %s", qPrintable(size))
            << u"rope-scaling"_s << u"phi-3-mini-128k"_s << size;
    }
}

// What the line across a slide's top says of the model (its name, its scaling) the page says
// there once: rope-decay's slide for Qwen2.5 repeated "yarn, factor 4, original 32,768" in its
// figure's title, many-layers' for ModernBERT named it in the line, the layer stack's title and
// the query scale's key.
void TestLessonSlideTexts::aSlideSaysTheModelOnce()
{
    QFETCH(QString, lesson);
    QFETCH(QString, preset);
    QFETCH(QString, size);
    const Slide slide = exportSlide(lesson, preset, size);
    QVERIFY2(slide.run.exitCode == 0, qPrintable(slide.run.err));
    const SvgTexts::Page page = SvgTexts::read(slide.svg);
    QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
    QVERIFY(!page.texts.empty());
    double top = page.texts.front().box.top();
    for (const SvgTexts::Text &each : page.texts)
        top = std::min(top, each.box.top());
    static const QRegularExpression space(u"\\s+"_s);
    QString line, rest;
    bool bold = false;
    for (const SvgTexts::Text &each : page.texts) {
        (each.box.top() < top + 1.0 ? line : rest) += QString(each.text).remove(space);
        bold |= each.box.top() < top + 1.0 && each.bold;
    }
    QVERIFY2(!bold, qPrintable(u"no model's line: "_s + line));
    const QStringList parts = line.split(u'·', Qt::SkipEmptyParts);
    QVERIFY(!parts.isEmpty());
    for (const QString &part : parts)
        QVERIFY2(!rest.contains(part), qPrintable(u"'%1' of the line '%2' said again below it"_s.arg(part, line)));
}

// dropout-on-sum's slides for MAE, whose dropout modes have 24 columns a panel: the modes' panels
// as wide as each other (a name wider than its panel goes into two lines, "protect-\nspecial",
// rather than holding its panel wider: the 16:9 slide's were 60 to 142 units wide), and the PE
// each loses in one wording on both slides (the 16:9 slide read "−10 %" where the 4:3 read
// "lost: 10 %").
void TestLessonSlideTexts::dropoutModesReadAlikeOnEverySlide()
{
    static const QRegularExpression image(
        u"<image x=\"([-0-9.]+)\" y=\"([-0-9.]+)\" width=\"([0-9.]+)\" height=\"([0-9.]+)\""_s);
    static const QRegularExpression loss(u"^(.*?)[−-]?[0-9.]+\u00a0%$"_s);
    QSet<QString> wordings;
    for (const QString &size : slideSizes()) {
        const Slide slide = exportSlide(u"dropout-on-sum"_s, u"mae-vit-b-16"_s, size);
        QVERIFY2(slide.run.exitCode == 0, qPrintable(slide.run.err));
        // The heatmaps of a row: its images at one height and top, a colour bar's (a sliver) aside.
        QHash<QString, QList<double>> rows;
        for (auto m = image.globalMatch(QString::fromUtf8(slide.svg)); m.hasNext();) {
            const QRegularExpressionMatch found = m.next();
            rows[found.captured(2) + u' ' + found.captured(4)].append(found.captured(3).toDouble());
        }
        int rowsRead = 0;
        for (QList<double> widths : std::as_const(rows)) {
            const double widest = *std::max_element(widths.begin(), widths.end());
            widths.removeIf([widest](double w) { return w < 0.3 * widest; });
            if (widths.size() < 5)
                continue;
            ++rowsRead;
            const auto [least, most] = std::minmax_element(widths.begin(), widths.end());
            QVERIFY2(*most - *least <= 2.0,
                     qPrintable(u"%1: panels %2 to %3 units wide"_s.arg(size).arg(*least).arg(*most)));
        }
        QVERIFY2(rowsRead >= 1, qPrintable(size));
        const SvgTexts::Page page = SvgTexts::read(slide.svg);
        QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
        for (const SvgTexts::Text &text : page.texts)
            if (const QRegularExpressionMatch m = loss.match(text.text); m.hasMatch())
                wordings.insert(m.captured(1));
    }
    QVERIFY2(wordings.size() == 1, qPrintable(QStringList(wordings.begin(), wordings.end()).join(u" | "_s)));
}

void TestLessonSlideTexts::dropoutModesNumberTheSameColumns_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("size");
    // Slides of the dropout modes alone (MAE's draws the magnitudes beside them).
    for (const QString &preset : {u"dit-xl-2"_s, u"whisper-large-v3"_s, u""_s})
        for (const QString &size : slideSizes())
            QTest::newRow(qPrintable(preset + u", "_s + size)) << preset << size;
}

// dropout-on-sum's 16:9 slide for DiT-XL/2 numbered its first panel's columns "0 5 10 15 20" and
// its four others' "0 5": the same columns (the panels' axes move together) read as two ranges.
// Under the lowest row of heatmaps every number is drawn under each panel, the first's at most
// giving one up to the axis's name.
void TestLessonSlideTexts::dropoutModesNumberTheSameColumns()
{
    QFETCH(QString, preset);
    QFETCH(QString, size);
    const Slide slide = exportSlide(u"dropout-on-sum"_s, preset, size);
    QVERIFY2(slide.run.exitCode == 0, qPrintable(slide.run.err));
    const SvgTexts::Page page = SvgTexts::read(slide.svg);
    QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
    static const QRegularExpression whole(u"^[0-9]+$"_s);
    double lowest = -1.0;
    for (const SvgTexts::Text &text : page.texts)
        if (whole.match(text.text).hasMatch())
            lowest = std::max(lowest, text.box.top());
    QHash<QString, int> drawn;
    for (const SvgTexts::Text &text : page.texts)
        if (whole.match(text.text).hasMatch() && std::abs(text.box.top() - lowest) <= 2.0)
            ++drawn[text.text];
    const int panels = *std::max_element(drawn.begin(), drawn.end());
    QVERIFY2(panels >= 3, qPrintable(QString::number(panels)));
    QStringList few;
    for (auto it = drawn.cbegin(); it != drawn.cend(); ++it)
        if (it.value() < panels - 1)
            few.append(u"%1 under %2 of %3"_s.arg(it.key()).arg(it.value()).arg(panels));
    QVERIFY2(few.isEmpty(), qPrintable(few.join(u", "_s)));
}

void TestLessonSlideTexts::leftPaddingsEffectIsDrawnOnItsTokensScale_data()
{
    QTest::addColumn<QString>("preset");
    QTest::newRow("flan-t5-base") << u"flan-t5-base"_s;
}

// left-padding's slide for Flan-T5: the position effect's difference, 0 (T5's buckets read only
// the ids' differences, which a common shift keeps), was drawn on an axis of ±5·10⁻¹⁴, a scale
// chosen from nothing; and its row of 1,000 tokens after 31,768 pads sat in the last 3 % of its
// columns. A difference 0 to rounding is drawn on the scores' own scale, and the row's tokens fill
// the effect's columns (its right half of the page: no tick below 30k there).
void TestLessonSlideTexts::leftPaddingsEffectIsDrawnOnItsTokensScale()
{
    POSENC_ROWS_IN_CI_WHERE(true);
    QFETCH(QString, preset);
    const Slide slide = exportSlide(u"left-padding"_s, preset, u"slide"_s);
    QVERIFY2(slide.run.exitCode == 0, qPrintable(slide.run.err));
    const SvgTexts::Page page = SvgTexts::read(slide.svg);
    QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
    static const QRegularExpression noise(u"10⁻(¹[⁰¹²³⁴⁵⁶⁷⁸⁹]|⁹)"_s);
    static const QRegularExpression thousands(u"^(\\d+(?:\\.\\d+)?)k$"_s);
    int columnTicks = 0;
    for (const SvgTexts::Text &each : page.texts) {
        QVERIFY2(!noise.match(each.text).hasMatch(), qPrintable(u"a tick of rounding noise: "_s + each.text));
        const auto tick = thousands.match(each.text.trimmed());
        if (!tick.hasMatch() || each.box.left() < page.viewBox.center().x())
            continue;
        ++columnTicks;
        QVERIFY2(tick.captured(1).toDouble() >= 30.0, qPrintable(u"the effect's columns from "_s + each.text));
    }
    QVERIFY(columnTicks > 0);
}

void TestLessonSlideTexts::ropeLayoutsKeyStandsInOneRow_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("size");
    for (const QString &size : slideSizes())
        for (const QString &preset : {QString(), u"gpt-j-6b"_s})
            QTest::addRow("%s %s", preset.isEmpty() ? "default" : qPrintable(preset),
                          size == u"slide"_s ? "16:9" : "4:3")
                << preset << size;
}

// rope-layouts' key names its two curves, each by its layout's pairs ("(2i, 2i + 1)", "(i, i + h)"),
// which no other text of its figure writes: on GPT-J's 4:3 slide the two entries stood in two rows,
// one under the other, the second row taken from the plot. Both stand in one row, at 16:9 and 4:3.
void TestLessonSlideTexts::ropeLayoutsKeyStandsInOneRow()
{
    POSENC_ROWS_IN_CI_WHERE(true);
    QFETCH(QString, preset);
    QFETCH(QString, size);
    const Slide slide = exportSlide(u"rope-layouts"_s, preset, size);
    QVERIFY2(slide.run.exitCode == 0, qPrintable(slide.run.err));
    const SvgTexts::Page page = SvgTexts::read(slide.svg);
    QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
    QList<QRectF> entries;
    for (const SvgTexts::Text &each : page.texts)
        if (each.text.contains(u"(2i, 2i + 1)"_s) || each.text.contains(u"(i, i + h)"_s))
            entries.append(each.box);
    QCOMPARE(entries.size(), 2);
    const double apart = std::abs(entries[0].center().y() - entries[1].center().y());
    QVERIFY2(
        apart < 0.5 * std::min(entries[0].height(), entries[1].height()),
        qPrintable(u"the key's entries %1 units apart up the page, %2 high"_s.arg(apart).arg(entries[0].height())));
}

POSENC_TEST_MAIN(TestLessonSlideTexts)
} // namespace tst_lessonslidetexts
#include "tst_lessonslidetexts.moc"
