#include "SessionController.h"

#include "ControlPanel.h"
#include "DashboardState.h"
#include "MatrixLoader.h"
#include "ParamLabels.h"

#include "core/ParamOverlay.h"
#include "core/positions/BatchTables.h"
#include "io/ByteSource.h"

#include <QFileInfo>
#include <QSettings>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QString kRecentKey = u"sessions/recent"_s;

} // namespace

SessionController::SessionController(SessionParts parts, QSettings *settings, QObject *parent)
    : QObject(parent)
    , m_parts(std::move(parts))
    , m_settings(settings)
{ }

Session SessionController::current() const
{
    Session session = Session::fromParams(m_parts.controls->params());
    session.view = viewState();
    session.lesson = m_lesson;
    return session;
}

QJsonObject SessionController::viewState() const
{
    return DashboardState::save(*m_parts.dashboard)
        .write(m_parts.extraViewState ? m_parts.extraViewState() : QJsonObject());
}

void SessionController::setViewState(const QJsonObject &view)
{
    if (m_parts.restoreExtraViewState)
        m_parts.restoreExtraViewState(view);
    DashboardState::restore(*m_parts.dashboard, SessionView::read(view));
}

bool SessionController::save(const QString &path)
{
    if (const auto error = writeSession(path, current())) {
        emit failed(tr("Cannot save the session"), error->toString());
        return false;
    }
    remember(path);
    setFile(path);
    emit saved(path);
    return true;
}

void SessionController::setFile(const QString &path)
{
    const QFileInfo info(path);
    m_file = path;
    m_fileTime = info.lastModified();
    m_fileSize = info.size();
}

bool SessionController::fileChangedOnDisk() const
{
    if (m_file.isEmpty())
        return false;
    const QFileInfo info(m_file);
    return !info.exists() || info.lastModified() != m_fileTime || info.size() != m_fileSize;
}

bool SessionController::open(const QString &path)
{
    auto read = readSession(path);
    if (const auto *error = std::get_if<SessionError>(&read)) {
        emit failed(tr("Cannot open the session"), error->toString());
        return false;
    }
    return apply(std::get<Session>(read), path);
}

bool SessionController::apply(const Session &session, const QString &path)
{
    const auto refuse = [&](const QStringList &reasons) {
        emit failed(tr("Cannot open the session"),
                    tr("%1: the session was not opened:\n%2").arg(path, reasons.join(u'\n')));
        return false;
    };
    // The session's parameters over the defaults; the memory budget is this machine's.
    Params params;
    params.memoryBudget = m_parts.controls->params().memoryBudget;
    QStringList problems;
    for (const ParamError &e : ParamOverlay::set(params, session.params))
        problems << ParamLabels::text(e);
    // The checks that need no matrix now; the rest once the matrices are read.
    if (problems.isEmpty()) {
        for (const ParamError &e : params.validate()) {
            if (e.key != u"embeddings"_s && e.key != u"position-table"_s && e.key != u"attention-mask"_s
                && e.key != u"document-ids"_s)
                problems << ParamLabels::text(e);
        }
    }
    if (session.params.contains(u"tokens"_s) && !session.params.contains(u"embeddings"_s))
        problems << tr("tokens: chooses rows of a matrix, so it needs embeddings");
    if (!problems.isEmpty())
        return refuse(problems);
    readMatrices(params, session, path);
    return true;
}

void SessionController::readMatrices(const Params &params, const Session &session, const QString &path)
{
    // The matrices are read off the GUI thread, one after the other: the embeddings, the learned
    // family's position table, then the batch's attention mask and document ids. Nothing changes
    // until all are in and checked.
    const QString key = [&]() -> QString {
        if (session.params.contains(u"embeddings"_s) && !params.embeddings)
            return u"embeddings"_s;
        if (session.params.contains(u"position-table"_s) && !params.learned.table)
            return u"position-table"_s;
        if (session.params.contains(u"attention-mask"_s) && !params.batch.mask)
            return u"attention-mask"_s;
        if (session.params.contains(u"document-ids"_s) && !params.batch.documents)
            return u"document-ids"_s;
        return {};
    }();
    if (key.isEmpty()) {
        QStringList reasons;
        for (const ParamError &e : params.validate())
            reasons << ParamLabels::text(e);
        if (!reasons.isEmpty()) {
            emit failed(tr("Cannot open the session"),
                        tr("%1: the session was not opened:\n%2").arg(path, reasons.join(u'\n')));
            return;
        }
        finishOpen(params, session, path);
        return;
    }
    const bool embeddings = key == u"embeddings"_s;
    MatrixLoader::Request request;
    request.source = MatrixSource::parse(session.params.value(key));
    if (embeddings)
        request.tokens = session.params.value(u"tokens"_s);
    request.minRows = embeddings     ? params.maxLen
        : key == u"position-table"_s ? params.learned.offset + params.maxLen
                                     : BatchParams::kMaxRows;
    request.memoryBudget = params.memoryBudget;
    m_parts.loader->load(request, [this, params, session, path, key](const ReadResult<LoadedMatrix> &loaded) {
        if (!loaded) {
            emit failed(tr("Cannot open the session"),
                        tr("%1: the session was not opened: its %2 cannot be read:\n%3")
                            .arg(path, ParamLabels::label(key), loaded.error().toString()));
            return;
        }
        Params withMatrix = params;
        const EmbeddingMatrix &m = *loaded->matrix;
        if (key == u"embeddings"_s)
            withMatrix.embeddings = loaded->matrix;
        else if (key == u"position-table"_s)
            withMatrix.learned.table = std::make_shared<const PositionMatrix>(PositionMatrix {m.values, m.source});
        else if (key == u"attention-mask"_s)
            withMatrix.batch.mask
                = std::make_shared<const BatchTable>(BatchTables::fromMatrix(m.values, true, m.source));
        else
            withMatrix.batch.documents
                = std::make_shared<const BatchTable>(BatchTables::fromMatrix(m.values, false, m.source));
        readMatrices(withMatrix, session, path);
    });
}

void SessionController::finishOpen(const Params &params, const Session &session, const QString &path)
{
    emit aboutToOpen();
    m_parts.controls->applyParams(params);
    setViewState(session.view);
    m_lesson = session.lesson;
    remember(path);
    setFile(path);
    emit opened(path);
}

QStringList SessionController::recentSessions() const
{
    if (!m_settings)
        return {};
    // The stored list is the user's file and may have been edited or corrupted: the menu
    // shows each path once, at most kMaxRecent of them, newest first, and none that names no file.
    QStringList recent;
    for (const QString &path : m_settings->value(kRecentKey).toStringList()) {
        if (fileNameProblem(path).isEmpty() && !recent.contains(path))
            recent.append(path);
        if (recent.size() == kMaxRecent)
            break;
    }
    return recent;
}

QStringList SessionController::pruneRecentSessions()
{
    QStringList kept, gone;
    for (const QString &path : recentSessions())
        (QFileInfo::exists(path) ? kept : gone).append(path);
    if (!gone.isEmpty() && m_settings) {
        m_settings->setValue(kRecentKey, kept);
        emit recentSessionsChanged();
    }
    return gone;
}

void SessionController::remember(const QString &path)
{
    if (!m_settings)
        return;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList recent = recentSessions();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    m_settings->setValue(kRecentKey, recent);
    emit recentSessionsChanged();
}

} // namespace posenc
