"""The live table's backend, put together (docs/activity.md): ``POST /api/token``, the
websocket ``GET /api/live`` and the page's files, on the bot's web server."""

from __future__ import annotations

from aiohttp import web

from delivery.lobbies import LobbyMessages
from delivery.moves import MoveDesk
from delivery.publisher import Publisher
from presentation.drawing.painters import InThread, Painter
from service.games import GameService
from service.languages import Languages
from web.clients import Clients
from web.config import ConfigEndpoint
from web.discord_api import DiscordApi
from web.hub import Hub
from web.live import LiveEndpoint, close_all
from web.members import Faces
from web.membership import Membership
from web.page import PageFiles
from web.sessions import SESSION_SECONDS, Sessions
from web.share import Shares
from web.tokens import TokenEndpoint


class Activity:
    def __init__(
        self,
        *,
        api: DiscordApi,
        secret: str,
        service: GameService,
        publisher: Publisher,
        desk: MoveDesk,
        languages: Languages,
        clients: Clients | None = None,
        session_seconds: float = SESSION_SECONDS,
        painter: Painter | None = None,
    ) -> None:
        """``clients`` reads a request's client address (the guard's limits per address and
        the refusals' log lines); every call to Discord goes through ``api.guard``;
        ``painter`` draws the pictures the result screen shares (by default in a thread)."""
        self.api = api
        self.sessions = Sessions(secret, seconds=session_seconds)
        self.membership = Membership(api, trust_seconds=session_seconds)
        lobbies = LobbyMessages(publisher)
        self.hub = Hub(service, can_post=lobbies.can_post, faces=Faces(api.member))
        clients = clients or Clients()
        self.token = TokenEndpoint(api, self.sessions, clients)
        self.live = LiveEndpoint(
            self.hub,
            service,
            publisher,
            desk,
            languages,
            api,
            self.sessions,
            self.membership,
            lobbies,
            clients,
            shares=Shares(service, api, painter or InThread()),
        )
        self.page = PageFiles(client_id=api.client_id)
        self.config = ConfigEndpoint(api.client_id)

    def routes(self) -> list[web.AbstractRouteDef]:
        """The page's catch-all goes last: the API's routes and /health come first."""
        return [
            *self.config.routes(),
            *self.token.routes(),
            *self.live.routes(),
            *self.page.routes(),
        ]

    async def start(self) -> None:
        await self.hub.start()
        self.live.pages.start()

    async def close(self) -> None:
        await self.live.pages.stop()
        await self.membership.close()
        await close_all(self.hub)
        await self.api.close()
