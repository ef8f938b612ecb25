// Lessons' figures as a lecturer shows them on a 14-pt slide (`posenc export --lesson NAME
// [--preset P] --size slide --font-size 14`), read back from the SVG as a reader sees them
// (tests/support/SvgTexts.h): each text says what it is of, and numbers of panels side by side
// stand apart.
#include "CliRun.h"
#include "support/SvgTexts.h"
#include "support/TestMain.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

namespace tst_lessonslidefigures {
using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

// The lesson's 16:9 slide at 14 pt for `preset` (its own model where empty), read; a failed run's
// error in `error`.
SvgTexts::Page slideOf(const QString &lesson, const QString &preset, QString &error)
{
    QTemporaryDir dir;
    if (!dir.isValid()) {
        error = u"no temporary directory"_s;
        return {};
    }
    const QString svg = dir.filePath(u"slide.svg"_s);
    QStringList arguments {u"export"_s,      u"--lesson"_s, lesson,       u"--size"_s, u"slide"_s,
                           u"--font-size"_s, u"14"_s,       u"--quiet"_s, u"-o"_s,     svg};
    if (!preset.isEmpty())
        arguments += {u"--preset"_s, preset};
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    const Run run = posenc(arguments, environment);
    QFile file(svg);
    if (run.exitCode != 0 || !file.open(QIODevice::ReadOnly)) {
        error = run.err;
        return {};
    }
    return SvgTexts::read(file.readAll());
}

} // namespace

class TestLessonSlideFigures : public QObject
{
    Q_OBJECT

private slots:
    void everyLossSaysWhatItIsOf_data();
    void everyLossSaysWhatItIsOf();
    void panelsNumbersStandApart_data();
    void panelsNumbersStandApart();
};

void TestLessonSlideFigures::everyLossSaysWhatItIsOf_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("preset");
    QTest::newRow("dropout-on-sum") << u"dropout-on-sum"_s << QString();
    QTest::newRow("dropout-on-sum, MAE") << u"dropout-on-sum"_s << u"mae-vit-b-16"_s;
    QTest::newRow("masked-dropout") << u"masked-dropout"_s << QString();
}

// dropout-on-sum's slide drew "−10 %" alone between its rows of heatmaps, under each mode: a
// number with no axis or word beside it saying of what. Each percentage says what it is of.
void TestLessonSlideFigures::everyLossSaysWhatItIsOf()
{
    QFETCH(QString, lesson);
    QFETCH(QString, preset);
    QString error;
    const SvgTexts::Page page = slideOf(lesson, preset, error);
    QVERIFY2(error.isEmpty() && page.error.isEmpty(), qPrintable(error + page.error));
    static const QRegularExpression bare(u"^\\s*[−-]?[0-9.]+\u00a0?\\s*%\\s*$"_s);
    int losses = 0;
    for (const SvgTexts::Text &text : page.texts) {
        if (!bare.match(text.text).hasMatch())
            continue;
        // A run of the line in another font (the minus sign's) is drawn as a text of its own: the
        // words before it on its line, within a space, are its line's.
        const bool said = std::any_of(page.texts.cbegin(), page.texts.cend(), [&](const SvgTexts::Text &word) {
            const double space = text.box.left() - word.box.right();
            return &word != &text && std::abs(word.box.center().y() - text.box.center().y()) < 0.5 * text.box.height()
                && space >= -0.5 && space <= 0.5 * text.pixelSize
                && word.text.contains(QRegularExpression(u"[A-Za-z]"_s));
        });
        QVERIFY2(said, qPrintable(u"a bare \"%1\""_s.arg(text.text)));
        ++losses;
    }
    // The losses drawn (a slide short of room may give the row of the PE parts up).
    qInfo("%d losses", losses);
}

void TestLessonSlideFigures::panelsNumbersStandApart_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("preset");
    QTest::newRow("masked-dropout") << u"masked-dropout"_s << QString();
    QTest::newRow("dropout-on-sum") << u"dropout-on-sum"_s << QString();
    QTest::newRow("dropout-on-sum, MAE") << u"dropout-on-sum"_s << u"mae-vit-b-16"_s;
}

// masked-dropout's slide set its first panel's last column number "30" against the next panel's
// "0", read as "300". The numbers of a row under panels side by side keep a space apart: a
// quarter of their text's height at least (a narrow space of the font).
void TestLessonSlideFigures::panelsNumbersStandApart()
{
    QFETCH(QString, lesson);
    QFETCH(QString, preset);
    QString error;
    const SvgTexts::Page page = slideOf(lesson, preset, error);
    QVERIFY2(error.isEmpty() && page.error.isEmpty(), qPrintable(error + page.error));
    static const QRegularExpression number(u"^[−-]?[0-9.,]+k?$"_s);
    std::vector<const SvgTexts::Text *> numbers;
    for (const SvgTexts::Text &text : page.texts)
        if (number.match(text.text.trimmed()).hasMatch())
            numbers.push_back(&text);
    int pairs = 0;
    QStringList close;
    for (const SvgTexts::Text *a : numbers)
        for (const SvgTexts::Text *b : numbers) {
            // b the next to the right of a in its row (the same baseline, to a unit), within a few
            // characters: the numbers under two panels side by side.
            const double apart = b->box.left() - a->box.right();
            if (a == b || std::abs(a->box.bottom() - b->box.bottom()) > 1.0 || apart < -1.0
                || apart > 3.0 * a->pixelSize)
                continue;
            const bool next = std::none_of(numbers.begin(), numbers.end(), [&](const SvgTexts::Text *c) {
                return c != a && c != b && std::abs(c->box.bottom() - a->box.bottom()) <= 1.0
                    && c->box.left() >= a->box.right() && c->box.right() <= b->box.left();
            });
            if (!next)
                continue;
            ++pairs;
            const double least = 0.25 * a->pixelSize;
            if (apart < least)
                close.append(u"\"%1\" and \"%2\" %3 units apart, at least %4"_s.arg(a->text, b->text)
                                 .arg(apart, 0, 'f', 1)
                                 .arg(least, 0, 'f', 1));
        }
    QVERIFY(pairs > 0);
    // Open: the room steps close panels up until their end labels meet in the middle of the grid's
    // spacing (FigureRoom's tightenMargins and tickLabelsApart), a gap of none allowed.
    QEXPECT_FAIL("masked-dropout", "panels' end tick labels closed up to touching (FigureRoom)", Continue);
    QVERIFY2(close.isEmpty(), qPrintable(close.join(u"; "_s)));
}

POSENC_TEST_MAIN(TestLessonSlideFigures)
} // namespace tst_lessonslidefigures
#include "tst_lessonslidefigures.moc"
