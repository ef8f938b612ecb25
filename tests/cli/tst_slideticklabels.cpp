// The tick labels of a lesson's 14-pt slide (issue 58's acceptance: `posenc export --lesson NAME
// [--preset P] --size slide --font-size 14`), read back from its SVG as a reader sees them
// (SvgTexts): an axis's numbers in one format, not "750, 1k, 1250", and the end tick label of an
// axis that reaches the page's edge drawn, not left out as one the page would cut
// (docs/ARCHITECTURE.md, Figures at any size).
#include "CliRun.h"
#include "support/SvgTexts.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

// The lesson's slide at 14 pt for `preset` (its own model where empty), read back.
SvgTexts::Page slideOf(const QString &lesson, const QString &preset)
{
    QTemporaryDir dir;
    if (!dir.isValid())
        return {{}, {}, u"no temporary directory"_s};
    const QString svg = dir.filePath(u"slide.svg"_s);
    QStringList arguments {u"export"_s,      u"--lesson"_s, lesson,       u"--size"_s, u"slide"_s,
                           u"--font-size"_s, u"14"_s,       u"--quiet"_s, u"-o"_s,     svg};
    if (!preset.isEmpty())
        arguments += {u"--preset"_s, preset};
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    const Run run = posenc(arguments, environment);
    QFile file(svg);
    if (run.exitCode != 0 || !file.open(QIODevice::ReadOnly))
        return {{}, {}, u"export failed: "_s + run.err};
    return SvgTexts::read(file.readAll());
}

// Whether `text` reads as a tick number: digits with a sign, point and thousands' commas, a unit
// of thousands or millions after ("1.5k"), or a power of ten ("10⁷", "2⁻³").
bool isNumber(const QString &text)
{
    static const QRegularExpression number(u"^[−-]?(\\d[\\d,]*(\\.\\d+)?[kMGT]?|\\d+[⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)$"_s);
    return number.match(text).hasMatch();
}

// Whether `text` is written in units ("1k", "2.5M").
bool inUnits(const QString &text)
{
    return isNumber(text) && (text.endsWith(u'k') || text.endsWith(u'M') || text.endsWith(u'G'));
}

// Whether `text` is a number of a thousand or more written out ("1250", "1,250").
bool writtenOut(const QString &text)
{
    static const QRegularExpression plain(u"^[−-]?\\d[\\d,]*(\\.\\d+)?$"_s);
    if (!plain.match(text).hasMatch())
        return false;
    return std::abs(QString(text).remove(u',').replace(u'−', u'-').toDouble()) >= 1000.0;
}

// The rows of tick numbers across (two or more numbers of one size, their inks level) and the
// columns of them up a side (their right ends level), each as the texts in it.
QList<QList<const SvgTexts::Text *>> tickRowsAndColumns(const SvgTexts::Page &page)
{
    QList<const SvgTexts::Text *> numbers;
    for (const SvgTexts::Text &text : page.texts)
        if (isNumber(text.text))
            numbers.append(&text);
    QList<QList<const SvgTexts::Text *>> groups;
    for (const bool across : {true, false}) {
        QList<const SvgTexts::Text *> left = numbers;
        while (!left.isEmpty()) {
            const SvgTexts::Text *first = left.takeFirst();
            QList<const SvgTexts::Text *> group {first};
            for (qsizetype i = left.size() - 1; i >= 0; --i) {
                const SvgTexts::Text *other = left[i];
                const bool level = across ? std::abs(other->box.bottom() - first->box.bottom()) <= 1.0
                                          : std::abs(other->box.right() - first->box.right()) <= 1.0;
                if (level && std::abs(other->pixelSize - first->pixelSize) < 0.01)
                    group.append(left.takeAt(i));
            }
            if (group.size() >= 2)
                groups.append(group);
        }
    }
    return groups;
}

} // namespace

class TestSlideTickLabels : public QObject
{
    Q_OBJECT

private slots:
    void oneFormatAnAxis_data();
    void oneFormatAnAxis();
    void endLabelsAtThePagesEdge_data();
    void endLabelsAtThePagesEdge();
};

void TestSlideTickLabels::oneFormatAnAxis_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("preset");
    // Issue 58's look: sum-vs-concat's positions read "750, 1k, 1250" for Whisper and the TensorFlow
    // tutorial; left-padding's and packing's long rows of positions are written short.
    QTest::newRow("sum-vs-concat whisper-large-v3") << u"sum-vs-concat"_s << u"whisper-large-v3"_s;
    QTest::newRow("sum-vs-concat tensorflow-tutorial") << u"sum-vs-concat"_s << u"tensorflow-tutorial"_s;
    QTest::newRow("left-padding") << u"left-padding"_s << QString();
    QTest::newRow("packing") << u"packing"_s << QString();
}

// No row or column of tick numbers mixes numbers in units ("1k") with numbers of a thousand and
// more written out ("1250"): one axis, one format, as matplotlib's EngFormatter writes its axis.
void TestSlideTickLabels::oneFormatAnAxis()
{
    QFETCH(QString, lesson);
    QFETCH(QString, preset);
    const SvgTexts::Page page = slideOf(lesson, preset);
    QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
    QStringList mixed;
    for (const auto &group : tickRowsAndColumns(page)) {
        const bool units = std::any_of(group.begin(), group.end(), [](auto *t) { return inUnits(t->text); });
        const bool out = std::any_of(group.begin(), group.end(), [](auto *t) { return writtenOut(t->text); });
        if (units && out) {
            QStringList texts;
            for (const SvgTexts::Text *text : group)
                texts.append(text->text);
            mixed.append(texts.join(u", "_s));
        }
    }
    QVERIFY2(mixed.isEmpty(), qPrintable(mixed.join(u"; "_s)));
}

void TestSlideTickLabels::endLabelsAtThePagesEdge_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("label");
    // The query scale's positions run to Llama 4 Scout's 10,485,760: its 10⁷ stands a unit from
    // the plot's right end, at the page's edge.
    QTest::newRow("many-layers") << u"many-layers"_s << QString() << u"10⁷"_s;
    QTest::newRow("many-layers llama-4-scout") << u"many-layers"_s << u"llama-4-scout"_s << u"10⁷"_s;
}

// The tick label of a tick in its axis's range is drawn, and on the page, where the axis reaches
// the page's edge: its panel keeps the margin the label needs.
void TestSlideTickLabels::endLabelsAtThePagesEdge()
{
    QFETCH(QString, lesson);
    QFETCH(QString, preset);
    QFETCH(QString, label);
    const SvgTexts::Page page = slideOf(lesson, preset);
    QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
    const auto found = std::find_if(page.texts.begin(), page.texts.end(),
                                    [&](const SvgTexts::Text &text) { return text.text == label; });
    QVERIFY2(found != page.texts.end(), qPrintable(u"no '%1' on the slide"_s.arg(label)));
    QVERIFY(page.viewBox.adjusted(-0.5, -0.5, 0.5, 0.5).contains(found->box));
}

QTEST_MAIN(TestSlideTickLabels)
#include "tst_slideticklabels.moc"
