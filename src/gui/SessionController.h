#pragma once

#include "io/SessionFile.h"

#include <QDateTime>
#include <QObject>
#include <QStringList>

#include <functional>

class QSettings;

namespace posenc {

class ControlPanel;
class Dashboard;
class MatrixLoader;

// The window's parts a session is made of and applied to.
struct SessionParts
{
    ControlPanel *controls = nullptr;
    Dashboard *dashboard = nullptr;
    MatrixLoader *loader = nullptr;
    // State of other parts kept under "view" (e.g. the learned-table view), read and restored
    // by whoever owns it; both may be empty.
    std::function<QJsonObject()> extraViewState;
    std::function<void(const QJsonObject &)> restoreExtraViewState;
};

// Saves and opens session files: every parameter of the control panel and the view state (the
// figure of each view with its options and zoom ranges, the maximised view), and the block of
// the lesson open, if any (LessonController keeps it here, and reads it of a session opened). Opening is all or
// nothing: a file that cannot be read, of another version, or with any invalid parameter is refused whole, with every
// reason, and changes nothing; a valid one goes through the control panel as an edit would. Problems are reported
// through failed(), never by a dialog of its own, so the window decides how to show them.
class SessionController : public QObject
{
    Q_OBJECT

public:
    static constexpr int kMaxRecent = 8;

    // `settings` (may be null) keeps the recent files (sessions, and the matrices loaded).
    SessionController(SessionParts parts, QSettings *settings, QObject *parent = nullptr);

    Session current() const;
    QJsonObject viewState() const;
    void setViewState(const QJsonObject &view);
    // The "lesson" block a session saved now carries: the lesson open, or empty.
    const QJsonObject &lesson() const { return m_lesson; }
    void setLesson(const QJsonObject &lesson) { m_lesson = lesson; }

    // Writes the current session whole or not at all; false (and failed()) when it cannot.
    bool save(const QString &path);
    // Reads and applies a session, and its lesson block (lesson() after opened()); with a matrix
    // to load the end comes later (opened() or failed()). Returns false when the file was refused at once.
    bool open(const QString &path);
    // Applies a session read elsewhere (posenc --session): same checks as open().
    bool apply(const Session &session, const QString &path);

    // The session file the window was last opened from or saved to, or empty: File > Save
    // session writes it again, and the title names it.
    const QString &file() const { return m_file; }
    // Whether that file was changed on disk since it was read or written here (by another
    // program or window): Save asks before replacing it.
    bool fileChangedOnDisk() const;

    // The recent files, newest first: the sessions opened or saved, and the matrices loaded.
    QStringList recentSessions() const;
    // Puts a file opened (a matrix, a session) first among the recent ones.
    void rememberFile(const QString &path) { remember(path); }
    // Forgets recent files that are gone; returns them.
    QStringList pruneRecentSessions();

signals:
    void failed(const QString &title, const QString &message);
    void saved(const QString &path);
    // A session read from a file is about to replace the parameters and views.
    void aboutToOpen();
    void opened(const QString &path);
    void recentSessionsChanged();

private:
    // Reads the session's matrices not yet in `params`, then opens it.
    void readMatrices(const Params &params, const Session &session, const QString &path);
    void finishOpen(const Params &params, const Session &session, const QString &path);
    void remember(const QString &path);
    void setFile(const QString &path);

    SessionParts m_parts;
    QSettings *m_settings;
    QJsonObject m_lesson;
    QString m_file;
    QDateTime m_fileTime; // the file's modification time and size as read or written
    qint64 m_fileSize = -1;
};

} // namespace posenc
