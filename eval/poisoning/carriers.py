"""Benign carrier tools: the ordinary tools that a poisoned payload is planted in.

Written in the style of published MCP servers (filesystem, git, GitHub, Slack,
fetch, time, weather, databases, calendars, payments, ...). Each carrier is
clean on its own; the generator copies one and plants a payload in one or two
of its fields. The carrier id is recorded in every label.
"""


def s(desc, **kw):
    """A string property."""
    d = {"type": "string", "description": desc}
    d.update(kw)
    return d


def i(desc, **kw):
    d = {"type": "integer", "description": desc}
    d.update(kw)
    return d


def b(desc, **kw):
    d = {"type": "boolean", "description": desc}
    d.update(kw)
    return d


def obj(props, required=()):
    o = {"type": "object", "properties": props}
    if required:
        o["required"] = list(required)
    return o


# (server, tool). Order is fixed: the generator indexes into this list.
CARRIERS = [
    ("filesystem", {
        "name": "read_text_file",
        "title": "Read text file",
        "description": "Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read. Only works within allowed directories.",
        "inputSchema": obj({"path": s("Path of the file to read"), "head": i("If provided, returns only the first N lines of the file"), "tail": i("If provided, returns only the last N lines of the file")}, ["path"]),
        "annotations": {"title": "Read text file", "readOnlyHint": True},
    }),
    ("filesystem", {
        "name": "list_directory",
        "title": "List directory",
        "description": "Get a detailed listing of all files and directories in a specified path. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes.",
        "inputSchema": obj({"path": s("Directory to list")}, ["path"]),
        "annotations": {"title": "List directory", "readOnlyHint": True},
    }),
    ("git", {
        "name": "git_log",
        "title": "Git log",
        "description": "Shows the commit logs of a repository.",
        "inputSchema": obj({"repo_path": s("Path to the Git repository"), "max_count": i("Maximum number of commits to show", default=10), "start_timestamp": s("Start timestamp for filtering commits, e.g. '2024-01-15T14:30:25' or '2 weeks ago'")}, ["repo_path"]),
    }),
    ("git", {
        "name": "git_diff_staged",
        "description": "Shows changes that are staged for commit.",
        "inputSchema": obj({"repo_path": s("Path to the Git repository"), "context_lines": i("Number of context lines to show", default=3)}, ["repo_path"]),
    }),
    ("github", {
        "name": "create_issue",
        "title": "Create issue",
        "description": "Create a new issue in a GitHub repository.",
        "inputSchema": obj({"owner": s("Repository owner"), "repo": s("Repository name"), "title": s("Issue title"), "body": s("Issue body content"), "labels": {"type": "array", "items": {"type": "string"}, "description": "Labels to apply to this issue"}}, ["owner", "repo", "title"]),
        "annotations": {"title": "Create issue", "readOnlyHint": False},
    }),
    ("github", {
        "name": "search_repositories",
        "title": "Search repositories",
        "description": "Search for GitHub repositories by name, description, topics or owner.",
        "inputSchema": obj({"query": s("Search query (see GitHub search syntax)"), "page": i("Page number for pagination", minimum=1), "perPage": i("Results per page (max 100)", maximum=100)}, ["query"]),
        "annotations": {"title": "Search repositories", "readOnlyHint": True},
    }),
    ("slack", {
        "name": "slack_post_message",
        "title": "Post message",
        "description": "Post a new message to a Slack channel.",
        "inputSchema": obj({"channel_id": s("The ID of the channel to post to"), "text": s("The message text to post")}, ["channel_id", "text"]),
    }),
    ("slack", {
        "name": "slack_get_channel_history",
        "description": "Get recent messages from a channel.",
        "inputSchema": obj({"channel_id": s("The ID of the channel"), "limit": i("Number of messages to retrieve", default=10)}, ["channel_id"]),
        "annotations": {"readOnlyHint": True},
    }),
    ("fetch", {
        "name": "fetch",
        "title": "Fetch URL",
        "description": "Fetches a URL from the internet and optionally extracts its contents as markdown.",
        "inputSchema": obj({"url": s("URL to fetch", format="uri"), "max_length": i("Maximum number of characters to return.", default=5000), "raw": b("Get the actual HTML content of the requested page, without simplification.", default=False)}, ["url"]),
        "annotations": {"title": "Fetch URL", "readOnlyHint": True, "openWorldHint": True},
    }),
    ("time", {
        "name": "convert_time",
        "title": "Convert time",
        "description": "Convert time between timezones.",
        "inputSchema": obj({"source_timezone": s("Source IANA timezone name (e.g. 'America/New_York', 'Europe/London')."), "time": s("Time to convert in 24-hour format (HH:MM)", pattern="^([01][0-9]|2[0-3]):[0-5][0-9]$"), "target_timezone": s("Target IANA timezone name (e.g. 'Asia/Tokyo', 'America/San_Francisco').")}, ["source_timezone", "time", "target_timezone"]),
    }),
    ("weather", {
        "name": "get_forecast",
        "title": "Weather forecast",
        "description": "Get weather forecast for a location.",
        "inputSchema": obj({"latitude": {"type": "number", "description": "Latitude of the location"}, "longitude": {"type": "number", "description": "Longitude of the location"}, "units": s("Units for temperatures", enum=["metric", "imperial"], default="metric")}, ["latitude", "longitude"]),
        "annotations": {"title": "Weather forecast", "readOnlyHint": True, "openWorldHint": True},
        "outputSchema": obj({"periods": {"type": "array", "description": "Forecast periods, nearest first", "items": obj({"name": s("Period name, e.g. 'Tonight'"), "temperature": {"type": "number", "description": "Temperature in the requested units"}, "summary": s("Short forecast text")})}}),
    }),
    ("postgres", {
        "name": "query",
        "title": "Run SQL query",
        "description": "Run a read-only SQL query against the connected database.",
        "inputSchema": obj({"sql": s("The SQL query to execute")}, ["sql"]),
        "annotations": {"title": "Run SQL query", "readOnlyHint": True},
    }),
    ("sqlite", {
        "name": "describe_table",
        "description": "Get the schema information for a specific table.",
        "inputSchema": obj({"table_name": s("Name of the table to describe")}, ["table_name"]),
    }),
    ("memory", {
        "name": "create_entities",
        "title": "Create entities",
        "description": "Create multiple new entities in the knowledge graph.",
        "inputSchema": obj({"entities": {"type": "array", "description": "Entities to create", "items": {"$ref": "#/$defs/Entity"}}}, ["entities"]),
        "annotations": {"title": "Create entities"},
    }),
    ("brave-search", {
        "name": "brave_web_search",
        "title": "Web search",
        "description": "Performs a web search using the Brave Search API, ideal for general queries, news, articles, and online content. Supports pagination and content filtering. Maximum 20 results per request.",
        "inputSchema": obj({"query": s("Search query (max 400 chars, 50 words)"), "count": i("Number of results (1-20, default 10)", default=10, minimum=1, maximum=20), "offset": i("Pagination offset (max 9, default 0)", default=0)}, ["query"]),
        "annotations": {"title": "Web search", "readOnlyHint": True, "openWorldHint": True},
    }),
    ("puppeteer", {
        "name": "puppeteer_screenshot",
        "description": "Take a screenshot of the current page or a specific element.",
        "inputSchema": obj({"name": s("Name for the screenshot"), "selector": s("CSS selector for element to screenshot"), "width": i("Width in pixels (default: 800)"), "height": i("Height in pixels (default: 600)")}, ["name"]),
    }),
    ("google-maps", {
        "name": "maps_directions",
        "title": "Directions",
        "description": "Get directions between two points.",
        "inputSchema": obj({"origin": s("Starting point address or coordinates"), "destination": s("Ending point address or coordinates"), "mode": s("Travel mode", enum=["driving", "walking", "bicycling", "transit"], default="driving")}, ["origin", "destination"]),
        "annotations": {"title": "Directions", "readOnlyHint": True},
    }),
    ("calendar", {
        "name": "list_events",
        "title": "List calendar events",
        "description": "List events from the user's calendar between two dates.",
        "inputSchema": obj({"calendar_id": s("Calendar identifier; 'primary' for the main calendar", default="primary"), "time_min": s("Lower bound (RFC 3339)", format="date-time"), "time_max": s("Upper bound (RFC 3339)", format="date-time"), "max_results": i("Maximum number of events", default=25)}, ["time_min"]),
        "annotations": {"title": "List calendar events", "readOnlyHint": True},
        "outputSchema": obj({"events": {"type": "array", "description": "Events in start order", "items": obj({"summary": s("Event title"), "start": s("Start time"), "end": s("End time")})}}),
    }),
    ("notion", {
        "name": "notion_search",
        "title": "Search Notion",
        "description": "Search pages and databases in the Notion workspace by title.",
        "inputSchema": obj({"query": s("Text to search for in page titles"), "filter": s("Restrict results to one object type", enum=["page", "database"]), "page_size": i("Number of results to return", default=20, maximum=100)}, ["query"]),
    }),
    ("jira", {
        "name": "jira_get_issue",
        "title": "Get Jira issue",
        "description": "Get details of a specific Jira issue including its epic links and relationship information.",
        "inputSchema": obj({"issue_key": s("Jira issue key (e.g. 'PROJ-123')", examples=["PROJ-123"]), "fields": s("Comma-separated list of fields to return", default="summary,status,assignee"), "expand": s("Optional fields to expand, e.g. 'renderedFields'")}, ["issue_key"]),
        "annotations": {"title": "Get Jira issue", "readOnlyHint": True},
    }),
    ("sentry", {
        "name": "get_sentry_issue",
        "description": "Retrieve and analyze a Sentry issue by ID or URL. Returns the title, status, level, first and last seen times, event count and the stack trace.",
        "inputSchema": obj({"issue_id_or_url": s("Sentry issue ID or URL to analyze")}, ["issue_id_or_url"]),
    }),
    ("stripe", {
        "name": "list_customers",
        "title": "List customers",
        "description": "Fetch a list of customers from Stripe.",
        "inputSchema": obj({"limit": i("A limit on the number of objects to be returned, between 1 and 100.", minimum=1, maximum=100), "email": s("A case-sensitive filter on the list based on the customer's email field.", format="email")}),
        "annotations": {"title": "List customers", "readOnlyHint": True},
    }),
    ("todoist", {
        "name": "add_task",
        "title": "Add task",
        "description": "Create a new task in Todoist with optional description, due date and priority.",
        "inputSchema": obj({"content": s("The task title"), "description": s("Detailed description of the task"), "due_string": s("Natural language due date like 'tomorrow' or 'next Monday'"), "priority": i("Task priority from 1 (normal) to 4 (urgent)", enum=[1, 2, 3, 4], default=1)}, ["content"]),
    }),
    ("everart", {
        "name": "generate_image",
        "description": "Generate images using EverArt models.",
        "inputSchema": obj({"prompt": s("Text description of the desired image"), "model": s("Model ID", enum=["5000", "9000", "6000", "7000", "8000"], default="5000"), "image_count": i("Number of images to generate", default=1)}, ["prompt"]),
    }),
    ("kubernetes", {
        "name": "pods_list",
        "title": "List pods",
        "description": "List all the Kubernetes pods in the current cluster from all namespaces.",
        "inputSchema": obj({"namespace": s("Namespace to list pods from; all namespaces when omitted"), "labelSelector": s("Kubernetes label selector (e.g. 'app=myapp,env=prod')", pattern="^[A-Za-z0-9=,!._/-]*$")}),
        "annotations": {"title": "List pods", "readOnlyHint": True},
    }),
    ("docker", {
        "name": "list_containers",
        "description": "List Docker containers on the host.",
        "inputSchema": obj({"all": b("Show all containers (default shows just running)", default=False), "filters": s("Filter output based on conditions provided, e.g. 'status=exited'")}),
    }),
    ("spotify", {
        "name": "search_tracks",
        "title": "Search tracks",
        "description": "Search Spotify for tracks, albums or artists.",
        "inputSchema": obj({"q": s("Search query keywords"), "type": s("Item type to search across", enum=["track", "album", "artist", "playlist"], default="track"), "market": s("An ISO 3166-1 alpha-2 country code", examples=["US", "DE"])}, ["q"]),
        "annotations": {"title": "Search tracks", "readOnlyHint": True},
    }),
    ("currency", {
        "name": "convert_currency",
        "title": "Convert currency",
        "description": "Convert an amount between two currencies using the daily ECB reference rates.",
        "inputSchema": obj({"amount": {"type": "number", "description": "Amount to convert"}, "from": s("ISO 4217 code of the source currency", pattern="^[A-Z]{3}$", examples=["EUR"]), "to": s("ISO 4217 code of the target currency", pattern="^[A-Z]{3}$", examples=["USD"])}, ["amount", "from", "to"]),
        "outputSchema": obj({"result": {"type": "number", "description": "Converted amount"}, "rate": {"type": "number", "description": "Rate used"}, "date": s("Date of the reference rate", format="date")}),
    }),
    ("obsidian", {
        "name": "search_notes",
        "description": "Search for notes in the Obsidian vault by text content. Returns matching note paths with a short excerpt.",
        "inputSchema": obj({"query": s("Text to search for"), "context_length": i("Characters of context around each match", default=100)}, ["query"]),
    }),
    ("linear", {
        "name": "linear_create_issue",
        "title": "Create Linear issue",
        "description": "Creates a new Linear issue with the given title, team and optional description, priority and status.",
        "inputSchema": obj({"title": s("Issue title"), "teamId": s("Team ID"), "description": s("Issue description (markdown)"), "priority": i("Priority (0-4)", minimum=0, maximum=4)}, ["title", "teamId"]),
        "annotations": {"title": "Create Linear issue", "destructiveHint": False},
    }),
    ("translate", {
        "name": "translate_text",
        "title": "Translate text",
        "description": "Translate text into a target language.",
        "inputSchema": obj({"text": s("Text to translate"), "target_lang": s("Target language code", enum=["EN", "DE", "FR", "ES", "IT", "JA", "ZH"]), "formality": s("Formality of the translation", enum=["default", "more", "less"], default="default")}, ["text", "target_lang"]),
        "annotations": {"title": "Translate text", "readOnlyHint": True, "openWorldHint": True},
    }),
    ("calculator", {
        "name": "calculate",
        "description": "Evaluate a mathematical expression and return the result.",
        "inputSchema": obj({"expression": s("Expression to evaluate, e.g. '2 * (3 + 4)'")}, ["expression"]),
        "outputSchema": obj({"value": {"type": "number", "description": "Result of the expression"}}),
    }),
]

# The memory server's schema uses $defs; give it one so $defs locations have a home.
CARRIERS[13][1]["inputSchema"]["$defs"] = {
    "Entity": obj({"name": s("The name of the entity"), "entityType": s("The type of the entity"), "observations": {"type": "array", "items": {"type": "string"}, "description": "Observations associated with the entity"}}, ["name", "entityType"]),
}
