#include "UserGuideDialog.h"

#include "ComputeScheduler.h"
#include "UserGuide.h"

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUrl>
#include <QVBoxLayout>

#include <memory>

using namespace Qt::StringLiterals;

namespace posenc {

UserGuideDialog::UserGuideDialog(QWidget *parent)
    : QDialog(parent)
    , m_browser(new QTextBrowser)
    , m_reading(new ComputeScheduler(this))
{
    setWindowTitle(tr("PosEnc Explorer user guide"));
    setObjectName(u"userGuideDialog"_s);
    // Links are followed here: the guide's own sections by their anchors, which Qt's Markdown
    // does not make, the rest by the desktop.
    m_browser->setOpenLinks(false);
    connect(m_browser, &QTextBrowser::anchorClicked, this, &UserGuideDialog::follow);
    m_browser->setPlainText(tr("Reading the user guide…"));
    // The page is long: its scroll bar is there from the start, so that the page, laid out as it
    // arrives, is laid out once for the width beside it.
    m_browser->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_browser);
    layout->addWidget(buttons);
    resize(900, 700);
    // QTextDocument is reentrant: the job makes the page on its own thread, then leaves it to no
    // thread, the one state from which the GUI thread may take a QObject (QObject::moveToThread).
    // Dropped on either thread, the page is deleted there.
    m_reading->submit([this](const std::atomic<bool> &, const ComputeScheduler::Publish &publish) {
        auto page = std::make_shared<std::unique_ptr<QTextDocument>>(std::make_unique<QTextDocument>());
        (*page)->setUndoRedoEnabled(false);
        (*page)->setMarkdown(UserGuide::markdown());
        (*page)->moveToThread(nullptr);
        publish([this, page] { showPage(std::move(*page)); });
    });
}

UserGuideDialog::~UserGuideDialog()
{
    // Closed while the guide is read: the reading is not waited for (it cannot stop midway), its
    // scheduler goes when it returns, or with the application, and what it hands over is dropped.
    if (m_reading->isIdle())
        return;
    m_reading->cancelAll();
    m_reading->setParent(QCoreApplication::instance());
    connect(m_reading, &ComputeScheduler::idle, m_reading, &QObject::deleteLater);
}

void UserGuideDialog::showPage(std::unique_ptr<QTextDocument> page)
{
    page->moveToThread(thread());
    page->setDefaultFont(m_browser->document()->defaultFont());
    page->setPageSize(m_browser->document()->pageSize());
    QTextDocument *shown = page.release();
    shown->setParent(m_browser);
    m_browser->setDocument(shown);
    // The guide's start: its title and the window, not wherever a cursor was left.
    m_browser->moveCursor(QTextCursor::Start);
    m_browser->verticalScrollBar()->setValue(0);
    m_ready = true;
    emit ready();
}

QString UserGuideDialog::anchorOf(const QString &heading)
{
    QString anchor;
    for (const QChar c : heading.toLower()) {
        if (c.isLetterOrNumber() || c == u'-' || c == u'_')
            anchor += c;
        else if (c == u' ')
            anchor += u'-';
    }
    return anchor;
}

bool UserGuideDialog::showSection(const QString &anchor)
{
    if (!m_ready)
        return false;
    QTextDocument *document = m_browser->document();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0 || anchorOf(block.text()) != anchor)
            continue;
        QTextCursor cursor(block);
        m_browser->setTextCursor(cursor);
        const qreal top = document->documentLayout()->blockBoundingRect(block).top();
        m_browser->verticalScrollBar()->setValue(int(top));
        return true;
    }
    return false;
}

void UserGuideDialog::follow(const QUrl &url)
{
    if (url.isRelative() && url.path().isEmpty() && url.hasFragment()) {
        showSection(url.fragment());
        return;
    }
    QDesktopServices::openUrl(url);
}

} // namespace posenc
