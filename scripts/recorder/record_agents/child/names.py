"""The framework names the recording stubs model (the rest of `agents` and `google.adk` are
permissive stubs)."""

SDK_HOSTED = {
    "ApplyPatchTool", "CodeInterpreterTool", "ComputerTool", "CustomTool",
    "FileSearchTool", "HostedMCPTool", "ImageGenerationTool", "LocalShellTool",
    "ProgrammaticToolCallingTool", "ShellTool", "ToolSearchTool", "WebSearchTool",
}
SDK_MCP = {"MCPServerStdio", "MCPServerSse", "MCPServerStreamableHttp", "MCPServer"}

ADK_AGENT_CLASSES = {
    "Agent", "LlmAgent", "SequentialAgent", "ParallelAgent", "LoopAgent",
    "BaseAgent", "RemoteA2aAgent", "LangGraphAgent",
}
ADK_TOOL_CLASSES = {
    "AgentTool", "AuthenticatedFunctionTool", "BaseAuthenticatedTool",
    "BaseRetrievalTool", "BigQueryTool", "BigtableParameterizedViewTool",
    "BuiltInCodeExecutionTool", "ComputerUseTool", "CrewaiTool",
    "DiscoveryEngineSearchTool", "EnterpriseWebSearchTool", "ExampleTool",
    "ExecuteBashTool", "FilesRetrieval", "FunctionTool", "GoogleApiTool",
    "GoogleMapsGroundingTool", "GoogleSearchAgentTool", "GoogleSearchTool",
    "GoogleTool", "IntegrationConnectorTool", "LangchainTool", "ListSkillsTool",
    "LlamaIndexRetrieval", "LoadArtifactsTool", "LoadMcpResourceTool",
    "LoadMemoryTool", "LoadSkillResourceTool", "LoadSkillTool",
    "LongRunningFunctionTool", "MCPTool", "McpTool", "ModelConsultTool",
    "PreloadMemoryTool", "RestApiTool", "RunSkillScriptTool", "SearchSkillsTool",
    "SetModelResponseTool", "TransferToAgentTool", "UnloadSkillTool",
    "UrlContextTool", "VertexAiLoadProfilesTool", "VertexAiRagRetrieval",
    "VertexAiSearchTool",
}
ADK_TOOLSET_CLASSES = {
    "APIHubToolset", "AgentRegistrySingleMcpToolset", "ApplicationIntegrationToolset",
    "BigQueryToolset", "BigtableToolset", "CalendarToolset", "ComputerUseToolset",
    "DataAgentToolset", "DocsToolset", "EnvironmentToolset", "EventarcToolset",
    "GCSAdminToolset", "GCSToolset", "GmailToolset", "GoogleApiToolset",
    "LiveKitToolset", "MCPToolset", "McpToolset", "MongoDbToolset",
    "OpenAPIToolset", "PubSubToolset", "SheetsToolset", "SkillToolset",
    "SlidesToolset", "SpannerAdminToolset", "SpannerToolset", "ToolboxToolset",
    "YoutubeToolset",
}
# module-level tool instances the ADK ships: export name -> (class, the
# instance's own name); one instance per class, as in the ADK
ADK_BUILT_INS = {
    "google_search": ("GoogleSearchTool", "google_search"),
    "built_in_code_execution": ("BuiltInCodeExecutionTool", "code_execution"),
    "enterprise_web_search_tool": ("EnterpriseWebSearchTool", "enterprise_web_search"),
    "enterprise_web_search": ("EnterpriseWebSearchTool", "enterprise_web_search"),
    "get_user_choice_tool": ("LongRunningFunctionTool", "get_user_choice"),
    "get_user_choice": ("LongRunningFunctionTool", "get_user_choice"),
    "google_maps_grounding": ("GoogleMapsGroundingTool", "google_maps_grounding"),
    "load_artifacts_tool": ("LoadArtifactsTool", "load_artifacts"),
    "load_artifacts": ("LoadArtifactsTool", "load_artifacts"),
    "load_memory": ("LoadMemoryTool", "load_memory"),
    "load_memory_tool": ("LoadMemoryTool", "load_memory"),
    "preload_memory_tool": ("PreloadMemoryTool", "preload_memory"),
    "preload_memory": ("PreloadMemoryTool", "preload_memory"),
    "request_input": ("FunctionTool", "request_input"),
    "url_context": ("UrlContextTool", "url_context"),
    "exit_loop": (None, "exit_loop"),  # plain functions in google.adk.tools
    "transfer_to_agent": (None, "transfer_to_agent"),
}
