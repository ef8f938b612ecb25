#include "Launcher.h"

#include "Accessibility.h"
#include "ControlPanel.h"
#include "FigureView.h"
#include "LessonController.h"
#include "MainWindow.h"
#include "MatrixLoader.h"
#include "SessionController.h"
#include "Settings.h"
#include "StartPanel.h"
#include "UndoHistory.h"

#include "io/AtomicFile.h"
#include "io/Preset.h"

#include <QApplication>
#include <QBuffer>
#include <QPainter>
#include <QSettings>
#include <QStatusBar>
#include <QTextStream>
#include <QTimer>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Counts the layout requests the application delivers while it lives.
class LayoutRequests : public QObject
{
public:
    LayoutRequests() { QCoreApplication::instance()->installEventFilter(this); }
    ~LayoutRequests() override { QCoreApplication::instance()->removeEventFilter(this); }
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::LayoutRequest)
            ++delivered;
        return false;
    }
    int delivered = 0;
};

bool fullyDrawn(const MainWindow &window)
{
    return !window.matrixLoader()->isLoading() && window.isSettled();
}

// The window as it looks, the start panel over it when it is open.
QPixmap screenshot(MainWindow &window)
{
    QPixmap shot = window.grab();
    if (StartPanel *panel = window.lessons()->startPanel(); panel && panel->isVisible()) {
        const QPixmap over = panel->grab();
        QPainter painter(&shot);
        const QPoint centre = QPoint(shot.width(), shot.height()) / (2 * shot.devicePixelRatio());
        painter.drawPixmap(centre - QPoint(over.width(), over.height()) / (2 * over.devicePixelRatio()), over);
    }
    return shot;
}

// Encoded whole first, then written whole or not at all: a full or read-only disk leaves no
// part of a PNG, and the message names the system's reason.
std::optional<QString> saveScreenshot(const QPixmap &shot, const QString &path)
{
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!shot.save(&buffer, "PNG"))
        return u"%1: the window's image could not be encoded as PNG"_s.arg(path);
    if (const auto failed
        = writeAtomically(path, [&png](QIODevice &device) { return device.write(png) == png.size(); }))
        return failed->toString();
    return std::nullopt;
}

} // namespace

bool readyForScreenshot(MainWindow &window)
{
    // The layouts asked for are done first, and those they ask for in turn: a view's option bar whose
    // controls moved to a row of their own lays its rows out in its old height, then asks its view
    // for the height they take. Qt delivers in one pass the requests posted before it, so passes
    // are made until one delivers none (a handful: one a level of the window's layouts). A window
    // grabbed between the two would show the bar's rows squeezed into its old height.
    LayoutRequests requests;
    constexpr int kMostPasses = 16;
    for (int pass = 0; pass < kMostPasses; ++pass) {
        const int before = requests.delivered;
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        if (requests.delivered == before)
            break;
    }
    return fullyDrawn(window);
}

std::optional<QSize> startSize(const WindowOptions &options)
{
    // A screenshot is a figure of its own: the window at a desktop screen's size unless told,
    // whatever the screen it is drawn on.
    return options.screenshot.isEmpty() ? options.size : options.size.value_or(kScreenshotSize);
}

bool offersLessons(const WindowOptions &options)
{
    return !options.paramsGiven && options.lesson.isEmpty() && options.screenshot.isEmpty() && options.files.isEmpty();
}

QIcon applicationIcon()
{
    QIcon icon;
    for (const int size : {16, 22, 24})
        icon.addPixmap(QIcon(u":/icons/posenc-%1.svg"_s.arg(size)).pixmap(QSize(size, size), 1.0));
    const QIcon large(u":/icons/posenc.svg"_s);
    for (const int size : {32, 44, 48, 64, 128, 256})
        icon.addPixmap(large.pixmap(QSize(size, size), 1.0));
    return icon;
}

void namePresetGiven(MainWindow &window, const WindowOptions &options)
{
    // The preset as the command line found it ("Flan-T5-base" is flan-t5-base), by its own name.
    if (!options.preset.isEmpty() && options.lesson.isEmpty())
        if (const Preset *preset = Presets::find(options.preset))
            window.controlPanel()->namePreset(preset->name);
}

int runWindow(const WindowOptions &options)
{
    // Before the first widget: a screen reader's bridge asks for each widget's interface as it is
    // made, and keeps it.
    Accessibility::install();
    const Settings::Opened opened = Settings::open();
    QSettings *settings = opened.settings.get();
    QTextStream err(stderr);
    if (!settings)
        err << "posenc: not reading the settings: " << opened.problem << "; nothing is remembered this time\n";
    if (options.resetSettings && settings)
        Settings::reset(*settings);
    Params params = options.params;
    QStringList problems;
    QString tooLarge;
    if (!options.paramsGiven && settings) {
        const Settings::LoadedParams loaded = Settings::loadParams(*settings);
        problems = loaded.problems;
        for (const QString &problem : problems)
            err << "posenc: ignoring the remembered parameters (" << problem << "); using the defaults\n";
        params = loaded.params;
        tooLarge = loaded.tooLarge;
    }
    err.flush(); // said as the window opens, not when it closes
    MainWindow window(params, settings);
    window.setMessagesStay(!options.screenshot.isEmpty());
    // Sized before a lesson shares its room out.
    const std::optional<QSize> size = startSize(options);
    if (size) {
        window.setSizeGiven(true);
        window.resize(*size);
    }
    // A window that starts in a lesson leaves it to the remembered parameters and the default
    // views, and remembers those when it closes: the lesson's are not the user's.
    std::optional<LessonController::Workspace> home;
    if (options.paramsGiven && !(options.lesson.isEmpty() && options.sessionLesson.isEmpty()))
        home = LessonController::Workspace {settings ? Settings::loadParams(*settings).params : Params {},
                                            window.sessions()->viewState()};
    if (options.sessionView)
        window.sessions()->setViewState(*options.sessionView);
    namePresetGiven(window, options);
    // A lecturer's own lesson, given as a session: its panel explains what it set.
    if (!options.sessionLesson.isEmpty()) {
        Session session = Session::fromParams(params);
        session.view = options.sessionView.value_or(QJsonObject());
        session.lesson = options.sessionLesson;
        if (const auto lesson = Lessons::fromSession(session, QString()); std::holds_alternative<Lesson>(lesson))
            window.lessons()->show(std::get<Lesson>(lesson), params, home);
    }
    if (const Lesson *lesson = Lessons::find(options.lesson))
        window.lessons()->show(*lesson, params, home, options.lessonModel);
    if (!problems.isEmpty())
        window.showStatus(
            QApplication::translate("posenc", "The remembered parameters were invalid (%1): the defaults are shown.")
                .arg(problems.join(u"; "_s)),
            15000);
    else if (!tooLarge.isEmpty())
        window.showStatus(
            QApplication::translate("posenc",
                                    "The remembered parameters were not restored (%1): the defaults are "
                                    "shown. Open a session or give the sizes on the command line to start "
                                    "larger.")
                .arg(tooLarge),
            15000);
    else if (!settings)
        window.showStatus(
            QApplication::translate("posenc", "The settings were not read (%1): nothing is remembered this time.")
                .arg(opened.problem),
            15000);
    if (size)
        window.fitArrangementTo(*size);
    else
        window.fitToScreen();
    window.history()->restart(); // Undo stops at the window as it starts, its lesson or session in it
    window.show();
    // posenc FILE, as a file manager starts it (Exec=posenc %F): each file as a drop opens it. A
    // screenshot cannot wait for an answer: a matrix whose name does not say becomes the embeddings.
    for (const QString &file : options.files)
        window.openFile(file, options.screenshot.isEmpty());
    if (offersLessons(options) || options.startPanel)
        window.lessons()->openStartPanelAtStart(options.startPanel);
    if (!options.screenshot.isEmpty()) {
        auto *poll = new QTimer(&window);
        QObject::connect(poll, &QTimer::timeout, &window, [&window, &options, poll, &err] {
            if (!readyForScreenshot(window))
                return;
            poll->stop();
            const auto failed = saveScreenshot(screenshot(window), options.screenshot);
            if (failed)
                err << "posenc: " << *failed << '\n';
            window.close(); // remembers the parameters, as a user's close does
            QApplication::exit(failed ? 3 : 0);
        });
        poll->start(50);
    }
    return QApplication::exec();
}

} // namespace posenc
